//! The app's routes, written in the URL's hash (`#/lesson/<id>`) so that plain static serving
//! works: the server only ever sees `/`.

/// One page of the app.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    Catalogue,
    Lesson(String),
    Sandbox,
    About,
    /// A learner joins a class, or resumes on another device.
    Join,
    /// An instructor signs in and manages classes.
    Teach,
    /// A class's live dashboard (class id).
    TeachClass(String),
    /// A read-only replay of one learner's lab (class id, learner id).
    Replay(String, String),
    /// A lab the server hosts, watched live (lab id).
    HostedLab(String),
    /// The pod doctor challenge: a fresh draw (`None`), or the one a seed draws.
    Challenge(Option<u64>),
    NotFound(String),
}

impl Route {
    /// Reads a location hash (`#/lesson/pods-are-cattle`, `#/`, or empty); a query after `?`
    /// (a permalink's `log=…`) belongs to the page, not the route.
    pub fn parse(hash: &str) -> Route {
        let path = hash.split('?').next().unwrap_or_default();
        let path = path.trim_start_matches('#').trim_start_matches('/').trim_end_matches('/');
        let parts: Vec<&str> = path.split('/').collect();
        match parts.as_slice() {
            [""] => Route::Catalogue,
            ["lesson", id] if !id.is_empty() => Route::Lesson((*id).to_string()),
            ["sandbox"] => Route::Sandbox,
            ["about"] => Route::About,
            ["join"] => Route::Join,
            ["teach"] => Route::Teach,
            ["teach", "class", id] if !id.is_empty() => Route::TeachClass((*id).to_string()),
            ["labs", id] if !id.is_empty() => Route::HostedLab((*id).to_string()),
            ["challenge"] => Route::Challenge(None),
            ["challenge", seed] if seed.parse::<u64>().is_ok() => Route::Challenge(seed.parse().ok()),
            ["teach", "class", id, "replay", learner] if !id.is_empty() && !learner.is_empty() => {
                Route::Replay((*id).to_string(), (*learner).to_string())
            }
            _ => Route::NotFound(path.to_string()),
        }
    }

    /// The hash that leads here, for links.
    pub fn href(&self) -> String {
        match self {
            Route::Catalogue => "#/".into(),
            Route::Lesson(id) => format!("#/lesson/{id}"),
            Route::Sandbox => "#/sandbox".into(),
            Route::About => "#/about".into(),
            Route::Join => "#/join".into(),
            Route::Teach => "#/teach".into(),
            Route::TeachClass(id) => format!("#/teach/class/{id}"),
            Route::Replay(id, learner) => format!("#/teach/class/{id}/replay/{learner}"),
            Route::HostedLab(id) => format!("#/labs/{id}"),
            Route::Challenge(None) => "#/challenge".into(),
            Route::Challenge(Some(seed)) => format!("#/challenge/{seed}"),
            Route::NotFound(path) => format!("#/{path}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_parse_and_print_back() {
        for route in [
            Route::Catalogue,
            Route::Lesson("x".into()),
            Route::Sandbox,
            Route::About,
            Route::Join,
            Route::Teach,
            Route::TeachClass("c1".into()),
            Route::Replay("c1".into(), "l2".into()),
            Route::HostedLab("lab1".into()),
            Route::Challenge(None),
            Route::Challenge(Some(42)),
        ] {
            assert_eq!(Route::parse(&route.href()), route);
        }
        assert_eq!(Route::parse(""), Route::Catalogue);
        assert_eq!(Route::parse("#/lesson/"), Route::NotFound("lesson".into()));
        assert_eq!(Route::parse("#/nope/a"), Route::NotFound("nope/a".into()));
        assert_eq!(Route::parse("#/teach/class/"), Route::NotFound("teach/class".into()));
        assert_eq!(Route::parse("#/teach/class/c/replay"), Route::NotFound("teach/class/c/replay".into()));
        assert_eq!(Route::parse("#/sandbox?log=abc"), Route::Sandbox);
        assert_eq!(Route::parse("#/lesson/x?log=abc"), Route::Lesson("x".into()));
    }
}
