//! The database: one sqlx `AnyPool` over SQLite (the default, a file in the working folder) or
//! PostgreSQL (`postgres://…`), with the same SQL and migrations for both.
//!
//! Portable SQL only: `TEXT` and `BIGINT` columns, `$N` placeholders (SQLite reads them as
//! numbered parameters), `ON CONFLICT DO NOTHING`, times as Unix milliseconds.

mod migrations;

#[cfg(test)]
pub use migrations::migration;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{AnyPool, Executor};
use std::str::FromStr;
use std::time::Duration;

/// Which server the pool talks to; the only place the SQL differs is set-up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    pub fn name(self) -> &'static str {
        match self {
            Backend::Sqlite => "sqlite",
            Backend::Postgres => "postgres",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Db {
    pub pool: AnyPool,
    pub backend: Backend,
    /// SQLite takes one writer at a time, and a writer that finds the file locked sleeps in
    /// its busy handler (steps up to 100 ms): write transactions queue here instead, in order.
    writer: std::sync::Arc<tokio::sync::Mutex<()>>,
}

/// The URL used when neither `--database` nor `DATABASE_URL` names one.
pub const DEFAULT_URL: &str = "sqlite://kubelab.db";

impl Db {
    /// Connects (creating an SQLite file when missing) and runs the migrations.
    pub async fn open(url: &str) -> Result<Db, sqlx::Error> {
        sqlx::any::install_default_drivers();
        let backend = backend_of(url)?;
        let url = match backend {
            Backend::Sqlite if !url.contains("mode=") => {
                format!("{url}{}mode=rwc", if url.contains('?') { '&' } else { '?' })
            }
            _ => url.to_string(),
        };
        if backend == Backend::Sqlite {
            private_file(&url).map_err(|e| sqlx::Error::Configuration(e.into()))?;
        }
        let options = AnyConnectOptions::from_str(&url)?;
        let pool = AnyPoolOptions::new()
            .max_connections(if backend == Backend::Sqlite { 4 } else { 16 })
            .acquire_timeout(Duration::from_secs(10))
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if backend == Backend::Sqlite {
                        // WAL lets readers run beside the one writer; synchronous=FULL makes
                        // every acknowledged write survive a crash or a power cut; the busy
                        // timeout queues writers instead of failing them.
                        conn.execute("PRAGMA journal_mode = WAL").await?;
                        conn.execute("PRAGMA synchronous = FULL").await?;
                        conn.execute("PRAGMA busy_timeout = 10000").await?;
                    }
                    Ok(())
                })
            })
            .connect_with(options)
            .await?;
        let db = Db { pool, backend, writer: Default::default() };
        migrations::run(&db).await?;
        migrations::hash_resume_codes(&db).await?;
        Ok(db)
    }
}

impl Db {
    /// A write transaction, after the writers before it on SQLite (PostgreSQL takes many at
    /// once); the queue's turn lasts as long as the returned guard.
    pub async fn begin_write(
        &self,
    ) -> Result<(Option<tokio::sync::OwnedMutexGuard<()>>, sqlx::Transaction<'static, sqlx::Any>), sqlx::Error> {
        let turn = match self.backend {
            Backend::Sqlite => Some(std::sync::Arc::clone(&self.writer).lock_owned().await),
            Backend::Postgres => None,
        };
        Ok((turn, self.pool.begin().await?))
    }
}

/// The SQLite file holds password hashes and resume codes: it (and so the `-wal` and `-shm`
/// files SQLite gives the same mode) is readable by its owner only, created so or tightened.
fn private_file(url: &str) -> std::io::Result<()> {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    let path = url.trim_start_matches("sqlite:").trim_start_matches("//");
    let path = path.split('?').next().unwrap_or("");
    if path.is_empty() || path.starts_with(':') {
        return Ok(()); // `:memory:`
    }
    std::fs::OpenOptions::new().create(true).append(true).mode(0o600).open(path)?;
    let mode = std::fs::metadata(path)?.permissions().mode();
    if mode & 0o077 != 0 {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode & 0o700))?;
    }
    Ok(())
}

fn backend_of(url: &str) -> Result<Backend, sqlx::Error> {
    if url.starts_with("sqlite:") {
        Ok(Backend::Sqlite)
    } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        Ok(Backend::Postgres)
    } else {
        Err(sqlx::Error::Configuration(
            format!("unsupported database URL {:?}: use sqlite://FILE or postgres://…", redact(url)).into(),
        ))
    }
}

/// A URL fit for a log line: the password, if any, replaced by `***`.
pub fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else { return url.to_string() };
    let Some((credentials, host)) = rest.split_once('@') else { return url.to_string() };
    match credentials.split_once(':') {
        Some((user, _)) => format!("{scheme}://{user}:***@{host}"),
        None => url.to_string(),
    }
}

/// Milliseconds since the Unix epoch: what every time column holds.
pub fn now_ms() -> i64 {
    let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    i64::try_from(since.as_millis()).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_never_reach_the_log() {
        assert_eq!(redact("postgres://kubelab:s3cret@127.0.0.1:5432/db"), "postgres://kubelab:***@127.0.0.1:5432/db");
        assert_eq!(redact("sqlite://kubelab.db"), "sqlite://kubelab.db");
        assert_eq!(redact("postgres://kubelab@localhost/db"), "postgres://kubelab@localhost/db");
    }

    #[test]
    fn unknown_schemes_are_refused_by_name() {
        let err = backend_of("mysql://root:pw@host/db").unwrap_err().to_string();
        assert!(err.contains("mysql://root:***@host/db") && err.contains("sqlite://FILE"), "{err}");
    }

    #[tokio::test]
    async fn the_database_file_is_its_owners_alone() {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("kubelab-db-mode-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (fresh, loose) = (dir.join("fresh.db"), dir.join("loose.db"));
        std::fs::write(&loose, b"").unwrap();
        std::fs::set_permissions(&loose, std::fs::Permissions::from_mode(0o644)).unwrap();
        for path in [&fresh, &loose] {
            let db = Db::open(&format!("sqlite://{}", path.display())).await.unwrap();
            sqlx::query("SELECT 1").execute(&db.pool).await.unwrap();
            for file in [path.clone(), path.with_extension("db-wal")] {
                let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
                assert_eq!(mode, 0o600, "{}", file.display());
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
