//! Classes: an instructor creates them (each with a join code) and lists them; a learner joins
//! one with its code and a display name (no password), and resumes on another device with the
//! resume code they were given.

use super::body::Body;
use super::problem::{ApiError, ApiResult};
use super::session::{self, Caller, Https, set_cookie};
use super::{AppState, codes, input};
use crate::db::{Db, now_ms};
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use serde::Deserialize;
use std::sync::Arc;

pub use kubelab_wire::Class;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewClass {
    name: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Join {
    join_code: String,
    display_name: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Resume {
    resume_code: String,
}

/// `POST /api/classes`
pub async fn create(
    State(state): State<Arc<AppState>>,
    caller: Caller,
    Body(form): Body<NewClass>,
) -> ApiResult<impl IntoResponse> {
    let instructor = caller.instructor("create classes")?;
    let name = input::display_name("name", &form.name)?;
    let (classes,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM classes WHERE instructor_id = $1")
        .bind(&instructor.id)
        .fetch_one(&state.db.pool)
        .await?;
    let most = state.limits.max_classes_per_instructor;
    if count(classes) >= most as u64 {
        return Err(ApiError::Forbidden(format!("quota: an instructor may have at most {most} classes")));
    }
    let id = codes::new_id();
    let join_code = codes::new_join_code();
    let created_at = now_ms();
    sqlx::query("INSERT INTO classes (id, instructor_id, name, join_code, created_at) VALUES ($1, $2, $3, $4, $5)")
        .bind(&id)
        .bind(&instructor.id)
        .bind(&name)
        .bind(&join_code)
        .bind(created_at)
        .execute(&state.db.pool)
        .await?;
    Ok((StatusCode::CREATED, Json(Class { id, name, join_code, created_at, learners: 0, joins_locked: false })))
}

/// `GET /api/classes`
pub async fn list(State(state): State<Arc<AppState>>, caller: Caller) -> ApiResult<Json<Vec<Class>>> {
    let instructor = caller.instructor("list classes")?;
    let rows: Vec<(String, String, String, i64, i64, i64)> = sqlx::query_as(
        "SELECT c.id, c.name, c.join_code, c.created_at,
                (SELECT COUNT(*) FROM users u WHERE u.class_id = c.id), c.joins_locked
         FROM classes c WHERE c.instructor_id = $1 ORDER BY c.created_at DESC, c.id",
    )
    .bind(&instructor.id)
    .fetch_all(&state.db.pool)
    .await?;
    let classes = rows
        .into_iter()
        .map(|(id, name, join_code, created_at, learners, locked)| Class {
            id,
            name,
            join_code,
            created_at,
            learners: count(learners),
            joins_locked: locked != 0,
        })
        .collect();
    Ok(Json(classes))
}

/// The class by id (404 when there is none), with its owner's id.
async fn class_row(db: &Db, class_id: &str) -> ApiResult<(Class, String)> {
    let row: Option<(String, String, String, i64, String, i64, i64)> = sqlx::query_as(
        "SELECT c.id, c.name, c.join_code, c.created_at, c.instructor_id,
                (SELECT COUNT(*) FROM users u WHERE u.class_id = c.id), c.joins_locked
         FROM classes c WHERE c.id = $1",
    )
    .bind(class_id)
    .fetch_optional(&db.pool)
    .await?;
    let (id, name, join_code, created_at, owner, learners, locked) =
        row.ok_or_else(|| ApiError::NotFound(format!("no class has id {class_id:?}")))?;
    let joins_locked = locked != 0;
    Ok((Class { id, name, join_code, created_at, learners: count(learners), joins_locked }, owner))
}

pub async fn class_by_id(db: &Db, class_id: &str) -> ApiResult<Class> {
    Ok(class_row(db, class_id).await?.0)
}

/// The class, if the caller is its instructor: 404 when there is no such class, 403 when it
/// is someone else's.
pub async fn owned_class(db: &Db, caller: &Caller, class_id: &str, doing: &str) -> ApiResult<Class> {
    let instructor = caller.instructor(doing)?;
    let (class, owner) = class_row(db, class_id).await?;
    if owner != instructor.id {
        return Err(ApiError::Forbidden(format!("only the class's instructor can {doing}")));
    }
    Ok(class)
}

/// `POST /api/join`
pub async fn join(
    State(state): State<Arc<AppState>>,
    https: Https,
    Body(form): Body<Join>,
) -> ApiResult<impl IntoResponse> {
    let display_name = input::display_name("display_name", &form.display_name)?;
    let unknown = || {
        ApiError::NotFound(format!("no class has the join code {:?}; check it with your instructor", form.join_code))
    };
    let join_code = codes::normalize_code(&form.join_code).ok_or_else(unknown)?;
    let class: Option<(String,)> = sqlx::query_as("SELECT id FROM classes WHERE join_code = $1")
        .bind(&join_code)
        .fetch_optional(&state.db.pool)
        .await?;
    let (class_id,) = class.ok_or_else(unknown)?;
    let class = class_by_id(&state.db, &class_id).await?;
    if class.joins_locked {
        return Err(ApiError::Forbidden("this class's instructor has locked joins; ask them to open it".into()));
    }
    let most = state.limits.max_learners_per_class;
    if class.learners >= most as u64 {
        return Err(ApiError::Forbidden(format!(
            "this class is full ({most} learners, its limit); ask your instructor"
        )));
    }
    let id = codes::new_id();
    let resume_code = codes::new_resume_code();
    sqlx::query(
        "INSERT INTO users (id, role, display_name, class_id, resume_code_hash, created_at)
         VALUES ($1, 'learner', $2, $3, $4, $5)",
    )
    .bind(&id)
    .bind(&display_name)
    .bind(&class_id)
    .bind(codes::token_hash(&resume_code))
    .bind(now_ms())
    .execute(&state.db.pool)
    .await?;
    state.hub.class_changed(&class_id);
    let cookie = session::start(&state.db, &id, https).await?;
    let me = session::Me { resume_code: Some(resume_code), ..session::me_by_id(&state.db, &id).await? };
    Ok((StatusCode::CREATED, set_cookie(cookie), Json(me)))
}

/// `POST /api/resume`
pub async fn resume(
    State(state): State<Arc<AppState>>,
    https: Https,
    Body(form): Body<Resume>,
) -> ApiResult<impl IntoResponse> {
    let unknown = || ApiError::NotFound("no learner has that resume code".into());
    let code = codes::normalize_code(&form.resume_code).ok_or_else(unknown)?;
    let row: Option<(String,)> = sqlx::query_as("SELECT id FROM users WHERE resume_code_hash = $1")
        .bind(codes::token_hash(&code))
        .fetch_optional(&state.db.pool)
        .await?;
    let (id,) = row.ok_or_else(unknown)?;
    let cookie = session::start(&state.db, &id, https).await?;
    Ok((set_cookie(cookie), Json(session::me_by_id(&state.db, &id).await?)))
}

/// A count as SQL returns it (a signed integer).
pub fn count(stored: i64) -> u64 {
    u64::try_from(stored).unwrap_or_default()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Joins {
    locked: bool,
}

/// `PUT /api/classes/{id}/joins`: `{"locked": true}` stops the join code letting anyone else
/// in (those already in stay); `false` opens it again.
pub async fn set_joins(
    State(state): State<Arc<AppState>>,
    caller: Caller,
    axum::extract::Path(class_id): axum::extract::Path<String>,
    Body(form): Body<Joins>,
) -> ApiResult<Json<Class>> {
    owned_class(&state.db, &caller, &class_id, "lock or open its joins").await?;
    sqlx::query("UPDATE classes SET joins_locked = $1 WHERE id = $2")
        .bind(i64::from(form.locked))
        .bind(&class_id)
        .execute(&state.db.pool)
        .await?;
    state.hub.class_changed(&class_id);
    Ok(Json(class_by_id(&state.db, &class_id).await?))
}

/// `POST /api/me/resume-code`: a new resume code for the learner, shown this once (the old one
/// stops working; devices already signed in stay signed in).
pub async fn new_resume_code(State(state): State<Arc<AppState>>, caller: Caller) -> ApiResult<Json<serde_json::Value>> {
    let (learner, _) = caller.learner("get a resume code")?;
    let resume_code = codes::new_resume_code();
    sqlx::query("UPDATE users SET resume_code_hash = $1 WHERE id = $2")
        .bind(codes::token_hash(&resume_code))
        .bind(&learner.id)
        .execute(&state.db.pool)
        .await?;
    Ok(Json(serde_json::json!({ "resume_code": resume_code })))
}
