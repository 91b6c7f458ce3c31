"""The site's forms (Flask-WTF: each carries its CSRF token). Validation here is about shape only;
the services decide what is allowed and say why not."""

from __future__ import annotations

from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import (
    BooleanField,
    DateTimeLocalField,
    IntegerField,
    PasswordField,
    SelectField,
    SelectMultipleField,
    StringField,
    TextAreaField,
)
from wtforms.validators import DataRequired, EqualTo, Length, NumberRange, Optional, Regexp, ValidationError
from wtforms.widgets import CheckboxInput, ListWidget


class SignUpForm(FlaskForm):
    username = StringField("User name", description="3 to 32 characters: lowercase letters, digits, - and _",
                           validators=[DataRequired(), Length(3, 32), Regexp(
                               r"^[A-Za-z0-9][A-Za-z0-9_-]*$",
                               message="use letters, digits, - and _ only, starting with a letter or digit")])
    email = StringField("E-mail (optional)", validators=[Optional(), Length(max=254)])
    password = PasswordField("Password", validators=[DataRequired(), Length(8, 256)],
                             description="at least 8 characters, not your user name, not a common password "
                                         "(a few uncommon words together work well)")
    confirm = PasswordField("Password again", validators=[DataRequired(), EqualTo("password", "the passwords differ")])


class LogInForm(FlaskForm):
    username = StringField("User name", validators=[DataRequired()])
    password = PasswordField("Password", validators=[DataRequired()])
    remember = BooleanField("Keep me logged in")


class ActionForm(FlaskForm):
    """A button that changes something (log out, retire, revoke): only the CSRF token."""


class UploadForm(FlaskForm):
    file = FileField("Bot file", validators=[FileRequired("choose a file to upload")],
                     description="one .py file, or a .zip with main.py at its root")
    # The name and the description are checked by the model's own rules (models.BotBase.RULES, in
    # services/uploads.py), so the form says what the API and the CLI say; the browser's maxlength
    # only spares a round trip.
    name = StringField("Bot name", render_kw={"maxlength": 40},
                       description="letters, digits, . _ - (a new version when you already have a bot of this name)")
    game = SelectField("Game", validators=[DataRequired()])
    description = TextAreaField("Description", render_kw={"maxlength": 2000})


class VersionUploadForm(FlaskForm):
    file = FileField("New version", validators=[FileRequired("choose a file to upload")])


class DataUploadForm(FlaskForm):
    file = FileField("Replace the data with", validators=[FileRequired("choose a .zip to upload")])


class CheckboxesField(SelectMultipleField):
    """A multiple choice as a list of checkboxes: no Ctrl-click, and every choice stays visible."""

    widget = ListWidget(prefix_label=False)
    option_widget = CheckboxInput()


class ChallengeForm(FlaskForm):
    # no DataRequired: its `required` flag would put `required` on every checkbox, and a browser
    # would then refuse to submit until all of them are ticked
    opponents = CheckboxesField("Opponents", coerce=int)

    def validate_opponents(self, field) -> None:
        if not field.data:
            raise ValidationError("choose at least one opponent")
        if len(set(field.data)) != len(field.data):
            raise ValidationError("choose each opponent once")


class PasswordChangeForm(FlaskForm):
    current = PasswordField("Current password", validators=[DataRequired()])
    password = PasswordField("New password", validators=[DataRequired(), Length(8, 256)],
                             description="at least 8 characters, not your user name, not a common password")
    confirm = PasswordField("New password again",
                            validators=[DataRequired(), EqualTo("password", "the passwords differ")])


class TokenForm(FlaskForm):
    name = StringField("Name", validators=[DataRequired(), Length(1, 40)],
                       description="what the token is for, e.g. the machine or script that uses it")
    scopes = SelectMultipleField("Scopes", choices=[("read", "read: your private data (logs, /me)"),
                                                    ("upload", "upload: new bots and versions"),
                                                    ("play", "play: challenges, and your bot run at home "
                                                             "(ladder connect)")],
                                 validators=[DataRequired("choose at least one scope")])


class EventForm(FlaskForm):
    """A tournament (admins only); the service checks the settings against the game."""

    name = StringField("Name", validators=[DataRequired(), Length(1, 80)])
    game = SelectField("Game", validators=[DataRequired()])
    table_size = IntegerField("Seats per table", validators=[DataRequired(), NumberRange(2, 6)], default=4)
    deals = IntegerField("Deals (per round)", validators=[DataRequired(), NumberRange(1, 200)], default=10,
                         description="each deal is played once in every seat order of its table")
    format = SelectField("Format", choices=[("round-robin", "Round robin"), ("swiss", "Swiss")])
    rounds = IntegerField("Rounds (Swiss)", validators=[Optional(), NumberRange(1, 20)], default=1)
    duplicate = BooleanField("Duplicate seating", default=True)
    open_registration = BooleanField("Open registration (else by invitation)")
    deadline = DateTimeLocalField("Registration deadline (UTC)", format="%Y-%m-%dT%H:%M", validators=[Optional()])
    options = TextAreaField("Game options", validators=[Optional(), Length(max=2000)],
                            description="one key=value per line")


class EntryForm(FlaskForm):
    bot = StringField("Bot", validators=[DataRequired(), Length(1, 80)], description="owner/name")
