// A starter bot in Go for every game of the ladder: Drachengold, Treasure of the Dragons, DragonFlame.
//
// It speaks docs/protocol.md: one JSON object per line on stdin, one answer line per request on
// stdout, its log on stderr. Each decision takes the simplest legal choice the request lists;
// change the functions under "Decisions" to make it play well. Standard library only.
//
// Build: go build -o bot .      Run: ./bot
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
)

// The parts of the messages this bot reads; encoding/json ignores every other field.
type Token struct {
	ID     string `json:"id"`
	Colour string `json:"colour"`
}

type Offer struct {
	ID   string         `json:"id"`
	Want map[string]int `json:"want"`
}

// The choices a request lists. A Raw list's items are copied into the answer exactly as they came
// (a field may have another shape in another game: a Drachengold card is an object, a DragonFlame
// card an id).
type Raw = json.RawMessage

type Request struct {
	Adventurers []Raw   `json:"adventurers"`
	Dragons     []Raw   `json:"dragons"`
	Proposals   []Raw   `json:"proposals"`
	Candidates  []Raw   `json:"candidates"`
	Hoard       []Token `json:"hoard"`
	Shares      int     `json:"shares"`
	Remaining   []Raw   `json:"remaining"`
	MaxOffers   int     `json:"max_offers"`
	Offers      []Offer `json:"offers"`
	CanStop     bool    `json:"can_stop"`
	Squares     []Raw   `json:"squares"`
	Cards       []Raw   `json:"cards"`
	Castles     []Raw   `json:"castles"`
	Lines       []Raw   `json:"lines"`
}

type Observation struct {
	Players     int     `json:"players"`
	Hoard       []Token `json:"hoard"`
	Request     Request `json:"request"`
	Negotiation struct {
		Involved []int   `json:"involved"`
		Tokens   []Token `json:"tokens"`
	} `json:"negotiation"`
	Strategic struct {
		Tokens []Token `json:"tokens"`
	} `json:"strategic"`
}

type Message struct {
	Type        string      `json:"type"`
	Game        string      `json:"game"`
	Seat        int         `json:"seat"`
	Players     int         `json:"players"`
	ID          int64       `json:"id"`
	Kind        string      `json:"kind"`
	Observation Observation `json:"observation"`
	Code        string      `json:"code"`
	Reason      string      `json:"reason"`
}

type M = map[string]interface{}

var seat int

// ---------------------------------------------------------------- Decisions

// The first element, or nil (JSON null) when the list is empty.
func first[T any](list []T) interface{} {
	if len(list) == 0 {
		return nil
	}
	return list[0]
}

func drachengold(kind string, obs *Observation) M {
	req := &obs.Request
	switch kind {
	case "magic":
		return M{"card": nil} // never play a Magic Object
	case "attack":
		return M{"adventurer": first(req.Adventurers), "dragon": first(req.Dragons)}
	case "propose": // every token to exactly one involved seat, dealt round-robin
		involved := obs.Negotiation.Involved
		if len(involved) == 0 {
			return M{} // keep the standing proposal (none): always legal
		}
		shares := map[string][]string{}
		for _, s := range involved {
			shares[fmt.Sprint(s)] = []string{}
		}
		for i, t := range obs.Negotiation.Tokens {
			key := fmt.Sprint(involved[i%len(involved)])
			shares[key] = append(shares[key], t.ID)
		}
		return M{"shares": shares}
	case "vote":
		return M{"accept": append([]Raw{}, req.Proposals...)} // agree to anything
	case "theft_victim":
		return M{"victim": first(req.Candidates)}
	case "theft_pick":
		if len(req.Hoard) == 0 {
			return M{"token": nil}
		}
		return M{"token": req.Hoard[0].ID}
	case "divide": // the tokens dealt round-robin into request.shares shares
		shares := make([][]string, req.Shares)
		for i := range shares {
			shares[i] = []string{}
		}
		for i, t := range obs.Strategic.Tokens {
			shares[i%req.Shares] = append(shares[i%req.Shares], t.ID)
		}
		return M{"shares": shares}
	case "choose":
		return M{"share": first(req.Remaining)}
	case "market_offer": // my first token to the next seat, for one token of another colour
		if len(obs.Hoard) == 0 || obs.Players < 2 || req.MaxOffers < 1 {
			return M{"offers": []M{}}
		}
		give := obs.Hoard[0]
		want := "gold"
		if give.Colour == "gold" {
			want = "silver"
		}
		offer := M{"to": (seat + 1) % obs.Players, "give": []string{give.ID}, "want": M{want: 1}}
		return M{"offers": []M{offer}}
	case "market_answer": // every offer I can pay exactly, each token used once
		used := map[string]bool{}
		accept := []M{}
		for _, offer := range req.Offers {
			pay, ok := []string{}, true
			picked := map[string]bool{}
			for colour, count := range offer.Want {
				for _, t := range obs.Hoard {
					if count > 0 && t.Colour == colour && !used[t.ID] && !picked[t.ID] {
						picked[t.ID] = true
						pay = append(pay, t.ID)
						count--
					}
				}
				ok = ok && count == 0
			}
			if ok {
				for _, id := range pay {
					used[id] = true
				}
				accept = append(accept, M{"offer": offer.ID, "pay": pay})
			}
		}
		return M{"accept": accept}
	}
	return M{}
}

func treasure(kind string, obs *Observation) M {
	req := &obs.Request
	switch kind {
	case "flip": // flip the first face-down square, then stop
		if req.CanStop {
			return M{"stop": true}
		}
		return M{"square": first(req.Squares)}
	case "move_spider":
		return M{"square": nil} // leave it where it is
	}
	return M{}
}

func dragonflame(kind string, obs *Observation) interface{} {
	req := &obs.Request
	switch kind {
	case "play": // castle null (discard) only when no castle has room
		return M{"card": first(req.Cards), "castle": first(req.Castles)}
	case "spy":
		return M{"castle": nil}
	case "attack":
		return M{"castle": first(req.Castles)}
	case "flame":
		return first(req.Lines) // {"side", "index"}: the decision is one of the lines as listed
	}
	return M{}
}

// ---------------------------------------------------------------- The conversation

func main() {
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	send := func(v interface{}) {
		line, _ := json.Marshal(v)
		out.Write(append(line, '\n'))
		out.Flush()
	}
	game := ""
	for {
		line, err := in.ReadBytes('\n')
		if len(line) == 0 && err != nil {
			return
		}
		var msg Message
		if err := json.Unmarshal(line, &msg); err != nil {
			// A field of an unexpected type leaves the rest filled in: go on. Not JSON: skip it.
			fmt.Fprintln(os.Stderr, "reading a message:", err)
			if _, bad := err.(*json.SyntaxError); bad {
				continue
			}
		}
		switch msg.Type {
		case "hello":
			seat, game = msg.Seat, msg.Game
			fmt.Fprintf(os.Stderr, "hello: %s, seat %d of %d\n", game, seat, msg.Players)
			send(M{"type": "ready", "name": "go-starter"})
		case "request":
			var decision interface{}
			switch game {
			case "drachengold":
				decision = drachengold(msg.Kind, &msg.Observation)
			case "treasure":
				decision = treasure(msg.Kind, &msg.Observation)
			case "dragonflame":
				decision = dragonflame(msg.Kind, &msg.Observation)
			default:
				decision = M{}
			}
			send(M{"id": msg.ID, "decision": decision})
		case "error":
			fmt.Fprintf(os.Stderr, "answer %d refused (%s): %s\n", msg.ID, msg.Code, msg.Reason)
		case "end":
			return
		} // events and unknown message types need no answer
	}
}
