//! The app's routes, written in the URL's hash (`#/lesson/<id>`) so that plain static serving
//! works: the server only ever sees `/`.

/// One page of the app.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    Catalogue,
    Lesson(String),
    Sandbox,
    About,
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
            Route::NotFound(path) => format!("#/{path}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_parse_and_print_back() {
        for route in [Route::Catalogue, Route::Lesson("x".into()), Route::Sandbox, Route::About] {
            assert_eq!(Route::parse(&route.href()), route);
        }
        assert_eq!(Route::parse(""), Route::Catalogue);
        assert_eq!(Route::parse("#/lesson/"), Route::NotFound("lesson".into()));
        assert_eq!(Route::parse("#/nope/a"), Route::NotFound("nope/a".into()));
        assert_eq!(Route::parse("#/sandbox?log=abc"), Route::Sandbox);
        assert_eq!(Route::parse("#/lesson/x?log=abc"), Route::Lesson("x".into()));
    }
}
