//! `helm status` and the report install, upgrade and `--install` print (cmd/helm/status.go's
//! table writer): name, time, namespace, status, revision, test suite, notes.

use super::release::Release;

pub fn report(release: &Release) -> String {
    let mut text = format!("NAME: {}\n", release.name);
    text.push_str(&format!("LAST DEPLOYED: {}\n", release.last_deployed().to_ctime()));
    text.push_str(&format!("NAMESPACE: {}\n", release.namespace));
    text.push_str(&format!("STATUS: {}\n", release.info.status));
    text.push_str(&format!("REVISION: {}\n", release.version));
    text.push_str("TEST SUITE: None\n");
    if !release.info.notes.is_empty() {
        text.push_str(&format!("NOTES:\n{}\n", release.info.notes.trim()));
    }
    text
}
