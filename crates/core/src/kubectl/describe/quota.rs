//! `kubectl describe resourcequota` and `limitrange`: a quota's used and hard per resource,
//! a LimitRange's bounds per type and resource. Mirrors `describeQuota`,
//! `helpTextForResourceQuotaScope` and `describeLimitRange` in
//! staging/src/k8s.io/kubectl/pkg/describe/describe.go.

use super::{LEVEL_0, PrefixWriter};
use crate::api::quantity::Quantity;
use crate::api::{LimitRange, ResourceQuota};
use std::collections::BTreeSet;

pub fn describe_quota(quota: &ResourceQuota) -> String {
    let mut w = PrefixWriter::default();
    w.write(LEVEL_0, &format!("Name:\t{}\n", quota.metadata.name));
    w.write(LEVEL_0, &format!("Namespace:\t{}\n", quota.metadata.namespace));
    if !quota.spec.scopes.is_empty() {
        let mut scopes: Vec<&str> = quota.spec.scopes.iter().map(String::as_str).collect();
        scopes.sort();
        w.write(LEVEL_0, &format!("Scopes:\t{}\n", scopes.join(", ")));
        for help in scopes.iter().filter_map(|s| scope_help(s)) {
            w.write(LEVEL_0, &format!(" * {help}\n"));
        }
    }
    w.write(LEVEL_0, "Resource\tUsed\tHard\n");
    w.write(LEVEL_0, "--------\t----\t----\n");
    for (resource, hard) in &quota.status.hard {
        // A used value in another format than its hard is shown in the hard's, whole units.
        let used = match quota.status.used.get(resource) {
            Some(used) if used.format() == hard.format() => *used,
            used => Quantity::from_int(used.map_or(0, Quantity::value), hard.format()),
        };
        w.write(LEVEL_0, &format!("{resource}\t{used}\t{hard}\n"));
    }
    w.finish()
}

/// `helpTextForResourceQuotaScope`.
pub fn scope_help(scope: &str) -> Option<&'static str> {
    Some(match scope {
        "Terminating" => {
            "Matches all pods that have an active deadline. These pods have a limited lifespan on a node before being actively terminated by the system."
        }
        "NotTerminating" => {
            "Matches all pods that do not have an active deadline. These pods usually include long running pods whose container command is not expected to terminate."
        }
        "BestEffort" => {
            "Matches all pods that do not have resource requirements set. These pods have a best effort quality of service."
        }
        "NotBestEffort" => {
            "Matches all pods that have at least one resource requirement set. These pods have a burstable or guaranteed quality of service."
        }
        _ => return None,
    })
}

/// `describeLimitRange`: a row per item and resource, `-` where a bound is unset. Upstream
/// walks a Go map here, in no fixed order; resources are sorted by name.
pub fn describe_limit_range(limit_range: &LimitRange) -> String {
    let mut w = PrefixWriter::default();
    w.write(LEVEL_0, &format!("Name:\t{}\n", limit_range.metadata.name));
    w.write(LEVEL_0, &format!("Namespace:\t{}\n", limit_range.metadata.namespace));
    w.write(LEVEL_0, "Type\tResource\tMin\tMax\tDefault Request\tDefault Limit\tMax Limit/Request Ratio\n");
    w.write(LEVEL_0, "----\t--------\t---\t---\t---------------\t-------------\t-----------------------\n");
    limit_range_rows(&mut w, limit_range, "");
    w.finish()
}

/// `describeLimitRangeSpec`: a row per item and resource, after `prefix`.
pub fn limit_range_rows(w: &mut PrefixWriter, limit_range: &LimitRange, prefix: &str) {
    for item in &limit_range.spec.limits {
        let lists = [&item.min, &item.max, &item.default_request, &item.default, &item.max_limit_request_ratio];
        let resources: BTreeSet<&String> = lists.iter().flat_map(|list| list.keys()).collect();
        for resource in resources {
            let cells: Vec<String> =
                lists.iter().map(|list| list.get(resource).map_or("-".to_string(), Quantity::to_string)).collect();
            w.write(LEVEL_0, &format!("{prefix}{}\t{resource}\t{}\n", item.type_, cells.join("\t")));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::kubectl::fixture::{lab, run};

    #[test]
    fn a_quota_shows_used_against_hard_and_a_limit_range_its_bounds() {
        let mut sim = lab(
            "kubectl create quota compute --hard=requests.cpu=1,memory=1G,pods=2\nkubectl apply -f - <<EOF\napiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers: [{name: web, image: nginx, resources: {requests: {cpu: 100m, memory: 64Mi}}}]\nEOF\nkubectl apply -f - <<EOF\napiVersion: v1\nkind: LimitRange\nmetadata: {name: bounds}\nspec:\n  limits:\n  - {type: Container, max: {cpu: \"2\"}, min: {cpu: 100m}}\n  - {type: Pod, max: {memory: 1Gi}}\nEOF\n",
        );
        // The used memory is in bytes, as the hard limit's decimal format prints them.
        assert_eq!(
            run(&mut sim, "kubectl describe quota compute"),
            "Name:         compute\nNamespace:    default\nResource      Used      Hard\n--------      ----      ----\nmemory        67108864  1G\npods          1         2\nrequests.cpu  100m      1\n"
        );
        // Defaulted from max: the default limit, then the default request from it.
        assert_eq!(
            run(&mut sim, "kubectl describe limits bounds"),
            "Name:       bounds\nNamespace:  default\nType        Resource  Min   Max  Default Request  Default Limit  Max Limit/Request Ratio\n----        --------  ---   ---  ---------------  -------------  -----------------------\nContainer   cpu       100m  2    2                2              -\nPod         memory    -     1Gi  -                -              -\n"
        );
    }
}
