//! The schema, as numbered migrations applied in order at start and recorded in
//! `schema_migrations`; one statement per entry, written to run on SQLite and PostgreSQL alike.

use super::{Backend, Db, now_ms};
use sqlx::{Acquire, Executor};

/// Append only: a released migration never changes; a change is a new entry.
const MIGRATIONS: &[(i64, &[&str])] = &[
    (
        1,
        &[
            "CREATE TABLE users (
            id TEXT PRIMARY KEY,
            role TEXT NOT NULL,
            email TEXT UNIQUE,
            password_hash TEXT,
            display_name TEXT NOT NULL,
            class_id TEXT,
            resume_code TEXT UNIQUE,
            created_at BIGINT NOT NULL)",
            "CREATE INDEX users_class ON users (class_id)",
            "CREATE TABLE sessions (
            token_hash TEXT PRIMARY KEY,
            user_id TEXT NOT NULL,
            created_at BIGINT NOT NULL)",
            "CREATE INDEX sessions_user ON sessions (user_id, created_at)",
            "CREATE TABLE classes (
            id TEXT PRIMARY KEY,
            instructor_id TEXT NOT NULL,
            name TEXT NOT NULL,
            join_code TEXT NOT NULL UNIQUE,
            created_at BIGINT NOT NULL)",
            "CREATE INDEX classes_instructor ON classes (instructor_id, created_at)",
            "CREATE TABLE progress (
            learner_id TEXT NOT NULL,
            event_id TEXT NOT NULL,
            class_id TEXT NOT NULL,
            lesson TEXT NOT NULL,
            step BIGINT NOT NULL,
            kind TEXT NOT NULL,
            item TEXT,
            answer TEXT,
            at BIGINT NOT NULL,
            PRIMARY KEY (learner_id, event_id))",
            "CREATE INDEX progress_class ON progress (class_id, at)",
            "CREATE TABLE labs (
            learner_id TEXT PRIMARY KEY,
            lesson TEXT NOT NULL,
            seed BIGINT NOT NULL,
            scripts TEXT NOT NULL,
            updated_at BIGINT NOT NULL)",
        ],
    ),
    (
        2,
        // Which simulator behaviour made a saved lab: labs saved before this column were made by 1.
        &["ALTER TABLE labs ADD COLUMN behaviour BIGINT NOT NULL DEFAULT 1"],
    ),
    (
        3,
        // What the dashboard shows, kept on write (api/dashboard_tables.rs) so building it reads
        // one row per learner and one per distinct answer, however many events there are.
        &[
            "CREATE TABLE learner_positions (
            learner_id TEXT PRIMARY KEY,
            class_id TEXT NOT NULL,
            lesson TEXT NOT NULL,
            step BIGINT NOT NULL,
            step_since BIGINT NOT NULL,
            last_at BIGINT NOT NULL,
            tasks BIGINT NOT NULL,
            hints BIGINT NOT NULL,
            events BIGINT NOT NULL)",
            "CREATE INDEX learner_positions_class ON learner_positions (class_id)",
            // The events recorded before: a learner's step since the first event there after
            // their last one anywhere else.
            "INSERT INTO learner_positions (learner_id, class_id, lesson, step, step_since, last_at, tasks, hints, events)
            SELECT r.learner_id, r.class_id, r.lesson, r.step,
                (SELECT MIN(p.at) FROM progress p WHERE p.learner_id = r.learner_id AND p.lesson = r.lesson
                    AND p.step = r.step AND p.at >= COALESCE((SELECT MAX(o.at) FROM progress o
                        WHERE o.learner_id = r.learner_id AND (o.lesson <> r.lesson OR o.step <> r.step)), 0)),
                r.at,
                (SELECT COUNT(*) FROM progress t WHERE t.learner_id = r.learner_id AND t.kind = 'task_passed'),
                (SELECT COUNT(*) FROM progress h WHERE h.learner_id = r.learner_id AND h.kind = 'hint_revealed'),
                (SELECT COUNT(*) FROM progress e WHERE e.learner_id = r.learner_id)
            FROM (SELECT learner_id, class_id, lesson, step, at,
                      ROW_NUMBER() OVER (PARTITION BY learner_id ORDER BY at DESC, event_id DESC) AS newest
                  FROM progress) r
            WHERE r.newest = 1",
            // item '' stands for none: a NULL in a primary key would never conflict.
            "CREATE TABLE answer_counts (
            class_id TEXT NOT NULL,
            lesson TEXT NOT NULL,
            step BIGINT NOT NULL,
            kind TEXT NOT NULL,
            item TEXT NOT NULL,
            answer TEXT NOT NULL,
            count BIGINT NOT NULL,
            PRIMARY KEY (class_id, lesson, step, kind, item, answer))",
            "INSERT INTO answer_counts (class_id, lesson, step, kind, item, answer, count)
            SELECT class_id, lesson, step, kind, COALESCE(item, ''), answer, COUNT(*) FROM progress
            WHERE kind IN ('prediction_answered', 'quiz_answered') AND answer IS NOT NULL
            GROUP BY class_id, lesson, step, kind, COALESCE(item, ''), answer",
        ],
    ),
    (
        4,
        // An instructor may lock a class's joins (the code then lets no one else in).
        &["ALTER TABLE classes ADD COLUMN joins_locked BIGINT NOT NULL DEFAULT 0"],
    ),
    (
        5,
        // Resume codes are kept as hashes, like session tokens (`hash_resume_codes` turns the
        // codes stored before into hashes once this has run).
        &[
            "ALTER TABLE users ADD COLUMN resume_code_hash TEXT",
            "CREATE UNIQUE INDEX users_resume_code_hash ON users (resume_code_hash)",
        ],
    ),
    (
        6,
        // Invitations to sign up as an instructor, for servers where sign-up is by invitation.
        &["CREATE TABLE invites (
            code_hash TEXT PRIMARY KEY,
            created_by TEXT NOT NULL,
            created_at BIGINT NOT NULL,
            used_by TEXT)"],
    ),
    (
        7,
        // Each learner's best pod doctor challenge, kept on write like the rest of their row.
        &[
            "ALTER TABLE learner_positions ADD COLUMN challenge_seed BIGINT",
            "ALTER TABLE learner_positions ADD COLUMN challenge_wall_ms BIGINT",
            "ALTER TABLE learner_positions ADD COLUMN challenge_virtual_ms BIGINT",
            "ALTER TABLE learner_positions ADD COLUMN challenge_hints BIGINT",
        ],
    ),
];

/// One migration's statements (tests replay a backfill against the write path).
#[cfg(test)]
pub fn migration(version: i64) -> &'static [&'static str] {
    MIGRATIONS.iter().find(|(v, _)| *v == version).map_or(&[], |(_, statements)| statements)
}

/// Codes stored in plaintext before migration 5: hashed, and the plaintext dropped. (SQL has
/// no portable SHA-256, so this one step is Rust; it finds nothing to do after its first run.)
pub async fn hash_resume_codes(db: &Db) -> Result<(), sqlx::Error> {
    let plain: Vec<(String, String)> =
        sqlx::query_as("SELECT id, resume_code FROM users WHERE resume_code IS NOT NULL").fetch_all(&db.pool).await?;
    for (id, code) in plain {
        sqlx::query("UPDATE users SET resume_code_hash = $1, resume_code = NULL WHERE id = $2")
            .bind(crate::api::codes::token_hash(&code))
            .bind(&id)
            .execute(&db.pool)
            .await?;
    }
    Ok(())
}

/// Applies the migrations not applied yet, each in its own transaction. On PostgreSQL an
/// advisory lock keeps two servers starting at once from racing.
pub async fn run(db: &Db) -> Result<(), sqlx::Error> {
    let mut conn = db.pool.acquire().await?;
    // The lock comes first: even `CREATE TABLE IF NOT EXISTS` races with itself on PostgreSQL.
    if db.backend == Backend::Postgres {
        conn.execute("SELECT pg_advisory_lock(7253001)").await?;
    }
    let result = apply_pending(&mut conn).await;
    if db.backend == Backend::Postgres {
        conn.execute("SELECT pg_advisory_unlock(7253001)").await?;
    }
    result
}

async fn apply_pending(conn: &mut sqlx::AnyConnection) -> Result<(), sqlx::Error> {
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, applied_at BIGINT NOT NULL)",
    )
    .await?;
    let applied: Vec<(i64,)> = sqlx::query_as("SELECT version FROM schema_migrations").fetch_all(&mut *conn).await?;
    for (version, statements) in MIGRATIONS {
        if applied.iter().any(|(v,)| v == version) {
            continue;
        }
        let mut tx = conn.begin().await?;
        for statement in *statements {
            tx.execute(*statement).await?;
        }
        sqlx::query("INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)")
            .bind(*version)
            .bind(now_ms())
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        tracing::info!(version, "applied database migration");
    }
    Ok(())
}
