//! `kubectl describe namespace`: its status, and the quotas and limit ranges that bind what
//! runs in it. Mirrors `describeNamespace`, `DescribeResourceQuotas` and
//! `DescribeLimitRanges` in staging/src/k8s.io/kubectl/pkg/describe/describe.go.

use super::{Describer, LEVEL_0, LEVEL_1, PrefixWriter, annotations_multiline, labels_multiline, quota};
use crate::api::{LimitRange, Namespace, ResourceQuota};

pub fn describe(describer: &Describer<'_>, namespace: &Namespace) -> String {
    let name = namespace.metadata.name.as_str();
    let mut w = PrefixWriter::default();
    w.write(LEVEL_0, &format!("Name:\t{name}\n"));
    labels_multiline(&mut w, "", "Labels", &namespace.metadata.labels);
    annotations_multiline(&mut w, "Annotations", &namespace.metadata.annotations);
    w.write(LEVEL_0, &format!("Status:\t{}\n", namespace.status.phase.as_deref().unwrap_or("")));
    w.write(LEVEL_0, "\n");
    resource_quotas(&mut w, describer.store.list::<ResourceQuota>(Some(name)).collect());
    w.write(LEVEL_0, "\n");
    limit_ranges(&mut w, describer.store.list::<LimitRange>(Some(name)).collect());
    w.finish()
}

/// `DescribeResourceQuotas`: every quota by name, used and hard as stored.
fn resource_quotas(w: &mut PrefixWriter, quotas: Vec<&ResourceQuota>) {
    if quotas.is_empty() {
        w.write(LEVEL_0, "No resource quota.\n");
        return;
    }
    w.write(LEVEL_0, "Resource Quotas\n");
    for q in quotas {
        w.write(LEVEL_1, &format!("Name:\t{}\n", q.metadata.name));
        if !q.spec.scopes.is_empty() {
            let mut scopes: Vec<&str> = q.spec.scopes.iter().map(String::as_str).collect();
            scopes.sort();
            w.write(LEVEL_1, &format!("Scopes:\t{}\n", scopes.join(", ")));
            for help in scopes.iter().filter_map(|s| quota::scope_help(s)) {
                w.write(LEVEL_1, &format!("* {help}\n"));
            }
        }
        w.write(LEVEL_1, "Resource\tUsed\tHard\n");
        w.write(LEVEL_1, "--------\t---\t---\n");
        for (resource, hard) in &q.status.hard {
            let used = q.status.used.get(resource).copied().unwrap_or_default();
            w.write(LEVEL_1, &format!("{resource}\t{used}\t{hard}\n"));
        }
    }
}

/// `DescribeLimitRanges`: every item of every LimitRange, one table.
fn limit_ranges(w: &mut PrefixWriter, limit_ranges: Vec<&LimitRange>) {
    if limit_ranges.is_empty() {
        w.write(LEVEL_0, "No LimitRange resource.\n");
        return;
    }
    w.write(
        LEVEL_0,
        "Resource Limits\n Type\tResource\tMin\tMax\tDefault Request\tDefault Limit\tMax Limit/Request Ratio\n",
    );
    w.write(LEVEL_0, " ----\t--------\t---\t---\t---------------\t-------------\t-----------------------\n");
    for limit_range in limit_ranges {
        quota::limit_range_rows(w, limit_range, " ");
    }
}

#[cfg(test)]
mod tests {
    use crate::kubectl::fixture::{lab, run};

    #[test]
    fn a_namespace_lists_its_quotas_and_limit_ranges() {
        let mut sim = lab("kubectl create namespace team\nkubectl create quota pods --hard=pods=3 -n team\n");
        assert_eq!(
            run(&mut sim, "kubectl describe namespace team"),
            "Name:         team\nLabels:       kubernetes.io/metadata.name=team\nAnnotations:  <none>\nStatus:       Active\n\nResource Quotas\n  Name:     pods\n  Resource  Used  Hard\n  --------  ---   ---\n  pods      0     3\n\nNo LimitRange resource.\n"
        );
    }
}
