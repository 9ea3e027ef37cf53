//! Signing up, in and out; what a session cookie looks like; refusals of bad bodies.

use super::{TestApp, assert_problem, cookie_of};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::json;

#[tokio::test]
async fn sign_up_sets_a_safe_cookie_and_me_answers() {
    let app = TestApp::new().await;
    let email = format!("ada-{}@Example.org", crate::api::codes::new_id());
    let answer = app
        .call(
            "POST",
            "/api/instructors",
            None,
            Some(json!({"email": email, "password": "correct horse", "display_name": " Ada "})),
        )
        .await;
    assert_eq!(answer.status, StatusCode::CREATED);
    let set_cookie = answer.set_cookie.clone().unwrap();
    for attribute in ["HttpOnly", "SameSite=Strict", "Path=/"] {
        assert!(set_cookie.contains(attribute), "{set_cookie}");
    }
    assert_eq!(answer.body["role"], "instructor");
    assert_eq!(answer.body["display_name"], "Ada");
    assert_eq!(answer.body["email"], email.to_lowercase());
    assert!(!answer.body.to_string().contains("correct horse") && answer.body.get("password_hash").is_none());

    let me = app.call("GET", "/api/me", Some(&cookie_of(&answer)), None).await;
    assert_eq!(me.status, StatusCode::OK);
    assert_eq!(me.body["id"], answer.body["id"]);
}

#[tokio::test]
async fn an_email_has_one_account_whatever_its_case() {
    let app = TestApp::new().await;
    let email = format!("grace-{}@example.org", crate::api::codes::new_id());
    let body = |email: &str| json!({"email": email, "password": "correct horse", "display_name": "Grace"});
    assert_eq!(app.call("POST", "/api/instructors", None, Some(body(&email))).await.status, StatusCode::CREATED);
    let again = app.call("POST", "/api/instructors", None, Some(body(&email.to_uppercase()))).await;
    assert_problem(&again, StatusCode::CONFLICT, "already exists; sign in instead");
}

#[tokio::test]
async fn bad_sign_ups_name_the_field() {
    let app = TestApp::new().await;
    let cases = [
        (json!({"email": "nope", "password": "correct horse", "display_name": "A"}), "email is not an email address"),
        (json!({"email": "a@b.org", "password": "short", "display_name": "A"}), "password must be at least 8"),
        (json!({"email": "a@b.org", "password": "correct horse", "display_name": ""}), "display_name must be 1 to 60"),
        (json!({"email": "a@b.org", "password": "correct horse"}), "missing field `display_name`"),
        (
            json!({"email": "a@b.org", "password": "correct horse", "display_name": "A", "admin": true}),
            "unknown field `admin`",
        ),
    ];
    for (body, detail) in cases {
        let answer = app.call("POST", "/api/instructors", None, Some(body)).await;
        assert_problem(&answer, StatusCode::BAD_REQUEST, detail);
    }
}

#[tokio::test]
async fn bodies_must_be_json() {
    let app = TestApp::new().await;
    let plain = Request::post("/api/join").header("content-type", "text/plain").body(Body::from("hi")).unwrap();
    assert_problem(&app.send(plain).await, StatusCode::UNSUPPORTED_MEDIA_TYPE, "Content-Type: application/json");
    let broken = Request::post("/api/join")
        .header("content-type", "application/json")
        .body(Body::from("{\"join_code\":"))
        .unwrap();
    assert_problem(&app.send(broken).await, StatusCode::BAD_REQUEST, "");
}

#[tokio::test]
async fn sign_in_and_out() {
    let app = TestApp::new().await;
    let email = format!("lin-{}@example.org", crate::api::codes::new_id());
    app.call(
        "POST",
        "/api/instructors",
        None,
        Some(json!({"email": email, "password": "correct horse", "display_name": "Lin"})),
    )
    .await;

    let wrong = app.call("POST", "/api/session", None, Some(json!({"email": email, "password": "wrong horse"}))).await;
    assert_problem(&wrong, StatusCode::UNAUTHORIZED, "wrong email or password");
    let nobody =
        app.call("POST", "/api/session", None, Some(json!({"email": "x@nobody.org", "password": "whatever1"}))).await;
    assert_problem(&nobody, StatusCode::UNAUTHORIZED, "wrong email or password");

    let signed_in =
        app.call("POST", "/api/session", None, Some(json!({"email": email, "password": "correct horse"}))).await;
    assert_eq!(signed_in.status, StatusCode::OK);
    let cookie = cookie_of(&signed_in);
    let out = app.call("DELETE", "/api/session", Some(&cookie), None).await;
    assert_eq!(out.status, StatusCode::NO_CONTENT);
    assert!(out.set_cookie.unwrap().contains("Max-Age=0"));
    assert_problem(&app.call("GET", "/api/me", Some(&cookie), None).await, StatusCode::UNAUTHORIZED, "sign in first");
}

#[tokio::test]
async fn no_session_no_answer() {
    let app = TestApp::new().await;
    assert_problem(&app.call("GET", "/api/me", None, None).await, StatusCode::UNAUTHORIZED, "sign in first");
    let forged = "kubelab_session=0000000000000000000000000000000000000000000000000000000000000000";
    assert_problem(
        &app.call("GET", "/api/classes", Some(forged), None).await,
        StatusCode::UNAUTHORIZED,
        "sign in first",
    );
    assert_problem(
        &app.call("GET", "/api/nothing-here", None, None).await,
        StatusCode::NOT_FOUND,
        "no such API endpoint",
    );
}

#[tokio::test]
async fn an_eleventh_session_signs_out_the_oldest() {
    let app = TestApp::new().await;
    let (_, code) = {
        let instructor = app.instructor("Cap").await;
        app.class(&instructor, "Cap class").await
    };
    let joined = app.call("POST", "/api/join", None, Some(json!({"join_code": code, "display_name": "Kim"}))).await;
    let first = cookie_of(&joined);
    let resume_code = joined.body["resume_code"].as_str().unwrap().to_string();
    let mut latest = String::new();
    // Sessions are ordered by their millisecond of birth: let the first be the oldest.
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    for _ in 0..crate::api::session::MAX_SESSIONS_PER_USER {
        let resumed = app.call("POST", "/api/resume", None, Some(json!({"resume_code": resume_code}))).await;
        latest = cookie_of(&resumed);
    }
    assert_problem(&app.call("GET", "/api/me", Some(&first), None).await, StatusCode::UNAUTHORIZED, "sign in first");
    assert_eq!(app.call("GET", "/api/me", Some(&latest), None).await.status, StatusCode::OK);
}

#[tokio::test]
async fn behind_an_https_proxy_the_cookie_is_secure_and_host_only() {
    let proxy = "10.0.0.1";
    let limits = crate::api::Limits { trusted_proxies: vec![proxy.parse().unwrap()], ..crate::api::Limits::default() };
    let app = TestApp::with_limits(limits).await;
    let email = format!("ada-{}@example.org", crate::api::codes::new_id());
    let form = json!({"email": email, "password": "correct horse", "display_name": "Ada"});
    let https = [("x-forwarded-proto", "https")];
    let signed_up = app.call_from(proxy, &https, ("POST", "/api/instructors"), None, Some(form)).await;
    let set_cookie = signed_up.set_cookie.clone().unwrap();
    assert!(set_cookie.starts_with("__Host-kubelab_session="), "{set_cookie}");
    assert!(set_cookie.contains("; Secure; HttpOnly; SameSite=Strict; Path=/;"), "{set_cookie}");
    let cookie = super::cookie_of(&signed_up);
    assert_eq!(app.call("GET", "/api/me", Some(&cookie), None).await.status, StatusCode::OK);
    // The same header from anyone else is not believed: plain HTTP, plain cookie.
    let signed_in = app
        .call_from(
            "192.0.2.9",
            &https,
            ("POST", "/api/session"),
            None,
            Some(json!({"email": email, "password": "correct horse"})),
        )
        .await;
    assert!(signed_in.set_cookie.unwrap().starts_with("kubelab_session="));
    let signed_out = app.call_from(proxy, &https, ("DELETE", "/api/session"), Some(&cookie), None).await;
    assert!(signed_out.set_cookie.unwrap().starts_with("__Host-kubelab_session=; Secure;"));
}

#[tokio::test]
async fn invite_only_sign_up_needs_an_invitation_after_the_first_instructor() {
    // A database of its own: the first instructor is the one an empty database lets in.
    if std::env::var_os("KUBELAB_TEST_DATABASE_URL").is_some() {
        return;
    }
    let limits = crate::api::Limits { signup: crate::api::invites::SignUp::Invite, ..crate::api::Limits::default() };
    let app = TestApp::with_limits(limits).await;
    let first = app.instructor("Ada").await;
    let form = |invite: Option<&str>| {
        let email = format!("grace-{}@example.org", crate::api::codes::new_id());
        Some(json!({"email": email, "password": "correct horse", "display_name": "Grace", "invite": invite}))
    };
    let uninvited = app.call("POST", "/api/instructors", None, form(None)).await;
    assert_problem(&uninvited, StatusCode::FORBIDDEN, "sign-up here is by invitation");
    let invite = app.call("POST", "/api/invites", Some(&first), None).await;
    assert_eq!(invite.status, StatusCode::CREATED);
    let code = invite.body["invite"].as_str().unwrap().to_string();
    let invited = app.call("POST", "/api/instructors", None, form(Some(&code))).await;
    assert_eq!(invited.status, StatusCode::CREATED, "{:?}", invited.body);
    let reused = app.call("POST", "/api/instructors", None, form(Some(&code))).await;
    assert_problem(&reused, StatusCode::FORBIDDEN, "by invitation");
}
