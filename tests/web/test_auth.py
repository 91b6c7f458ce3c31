"""Sign up, log in, log out; CSRF on every form; hashed passwords; escaped output."""

from __future__ import annotations

from sqlmodel import select

from ladder.models import User


def test_signup_logs_in_and_stores_only_a_hash(site, sessions):
    response = site.signup("alice")
    assert response.headers["Location"].endswith("/bots/upload")
    me = site.client.get("/users/me", follow_redirects=True)
    assert me.request.path == "/users/alice"
    assert "/account/" in me.get_data(as_text=True)  # the owner's own page links to the account page
    assert "Your account" not in site.text("/users/house")
    assert "Create a new token" in site.text("/account/")
    with sessions() as session:
        user = session.exec(select(User).where(User.username == "alice")).one()
    assert user.password_hash.startswith("$argon2id$")
    assert "correct horse" not in user.password_hash


def test_signup_refuses_a_taken_name_and_a_bad_one(site):
    site.signup("alice")
    site.logout()
    good = "jam quartz vivid"
    taken = site.post("/auth/signup", {"username": "Alice", "password": good, "confirm": good}, page="/auth/signup")
    assert taken.status_code == 400
    assert "is taken" in taken.get_data(as_text=True)
    bad = site.post("/auth/signup", {"username": "a b!", "password": "x" * 10, "confirm": "x" * 10},
                    page="/auth/signup")
    assert bad.status_code == 400
    assert "use letters, digits, - and _ only" in bad.get_data(as_text=True)


def test_login_logout_and_wrong_password(site):
    site.signup("bob")
    site.logout()
    assert site.client.get("/bots/upload").status_code == 302  # logged out: sent to the login page
    wrong = site.login("bob", "not the password")
    assert wrong.status_code == 401
    assert "Wrong user name or password" in wrong.get_data(as_text=True)
    ok = site.login("bob")
    assert ok.status_code == 302
    assert site.client.get("/bots/upload").status_code == 200


def test_login_redirects_only_to_same_site_paths(site):
    site.signup("carol")
    site.logout()
    token = site.token()
    evil = site.client.post("/auth/login?next=//evil.example/x",
                            data={"username": "carol", "password": "correct horse battery", "csrf_token": token})
    assert evil.headers["Location"] == "/"
    site.logout()
    token = site.token()
    good = site.client.post("/auth/login?next=/users/carol",
                            data={"username": "carol", "password": "correct horse battery", "csrf_token": token})
    assert good.headers["Location"] == "/users/carol"


def test_forms_without_the_csrf_token_are_refused(site, client):
    no_token = client.post("/auth/signup", data={"username": "mallory", "password": "x" * 10, "confirm": "x" * 10})
    assert no_token.status_code == 400
    assert "CSRF" in no_token.get_data(as_text=True)
    site.signup("dave")
    for url in ("/auth/logout", "/account/tokens", "/account/password", "/account/logout-everywhere",
                "/bots/1/retire"):
        assert client.post(url).status_code == 400, url
    forged = client.post("/auth/logout", data={"csrf_token": "forged"})
    assert forged.status_code == 400
    assert client.get("/users/me").status_code == 302  # still logged in: the forged logout did nothing


def test_the_house_user_cannot_log_in(site):
    response = site.login("house", "")
    assert response.status_code in (200, 401)
    assert site.client.get("/bots/upload").status_code == 302


def test_user_page_escapes_what_users_write(site):
    response = site.post("/auth/signup", {"username": "<script>alert(1)</script>", "password": "x" * 10,
                                          "confirm": "x" * 10}, page="/auth/signup")
    html = response.get_data(as_text=True)
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;" in html


def test_signup_refuses_common_passwords_and_the_user_name_with_the_reason(site, sessions):
    for password, why in [("12345678", "top-10 common password"), ("password", "top-10 common password"),
                          ("erinerin", "contains your user name")]:
        response = site.post("/auth/signup", {"username": "erin", "password": password, "confirm": password},
                             page="/auth/signup")
        assert response.status_code == 400 and why in response.get_data(as_text=True), password
    with sessions() as session:
        assert session.exec(select(User).where(User.username == "erin")).first() is None
