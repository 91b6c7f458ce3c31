module starterbot

go 1.19
