//! `helm repo list` and `helm search repo [KEYWORD]`: the one built-in repository and its
//! charts (cmd/helm/repo_list.go, search_repo.go).

use super::chart::{self, REPO_NAME, REPO_URL};
use super::table;
use crate::kubectl::Context;
use crate::kubectl::args::Args;

/// `--max-col-width`'s default.
const MAX_COLUMN_WIDTH: usize = 50;

pub fn list(_ctx: &mut Context<'_>, _args: &Args) -> Result<String, String> {
    let rows = vec![vec!["NAME".to_string(), "URL".to_string()], vec![REPO_NAME.to_string(), REPO_URL.to_string()]];
    Ok(table::render(&rows, 0))
}

pub fn search(_ctx: &mut Context<'_>, args: &Args) -> Result<String, String> {
    let keyword = args.positionals.join(" ").to_lowercase();
    let mut rows = vec![["NAME", "CHART VERSION", "APP VERSION", "DESCRIPTION"].map(String::from).to_vec()];
    for chart in chart::built_in() {
        let meta = &chart.metadata;
        let full_name = format!("{REPO_NAME}/{}", meta.name);
        let haystack = format!("{full_name} {}", meta.description).to_lowercase();
        if !keyword.is_empty() && !haystack.contains(&keyword) {
            continue;
        }
        rows.push(vec![full_name, meta.version.clone(), meta.app_version.clone(), meta.description.clone()]);
    }
    if rows.len() == 1 {
        return Ok("No results found\n".into());
    }
    Ok(table::render(&rows, MAX_COLUMN_WIDTH))
}
