//! `kubectl api-resources`: the discovery table (`api::RESOURCES`), core group first, then
//! the named groups, each sorted by name. Mirrors
//! staging/src/k8s.io/kubectl/pkg/cmd/apiresources/apiresources.go.

use super::args::{Args, Flag};
use super::output::{Output, Table};
use super::{Context, Verb};
use crate::api::{RESOURCES, ResourceInfo};
use crate::apiserver::rest::discovery;
use crate::store::Store;

pub const VERB: Verb = Verb {
    name: "api-resources",
    short: "Print the supported API resources on the server",
    usage: "kubectl api-resources [flags] [options]",
    flags: &[
        Flag::value("output", Some('o'), "Output format. One of: (wide, name)."),
        Flag::value(
            "namespaced",
            None,
            "If false, non-namespaced resources will be returned, otherwise returning namespaced resources by default.",
        ),
        Flag::value("api-group", None, "Limit to resources in the specified API group."),
        Flag::switch(
            "no-headers",
            None,
            "When using the default or custom-column output format, don't print headers (default print headers).",
        ),
        Flag::value(
            "sort-by",
            None,
            "If non-empty, sort list of resources using specified field. The field can be either 'name' or 'kind'.",
        ),
    ],
    run,
};

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    let output = args.get("output").unwrap_or("");
    if !["", "wide", "name"].contains(&output) {
        return Output::failed(format!("error: --output {output} is not available"));
    }
    let mut rows: Vec<&ResourceInfo> =
        RESOURCES.iter().filter(|r| ctx.sim.store().serves(r.kind) && keep(r, &args)).collect();
    // kubectl sorts by group name, the core group first; discovery lists each group's
    // resources alphabetically.
    rows.sort_by_key(|r| (r.group, r.plural));
    match args.get("sort-by").unwrap_or("") {
        "" => {}
        "name" => rows.sort_by_key(|r| r.plural),
        "kind" => rows.sort_by_key(|r| r.kind_name),
        other => return Output::failed(format!("error: --sort-by accepts only name or kind, got {other:?}")),
    }
    let mut out = Output::default();
    if output == "name" {
        for r in rows {
            out.line(r.plural_qualified());
        }
        return out;
    }
    let wide = output == "wide";
    let mut headers = vec!["NAME", "SHORTNAMES", "APIVERSION", "NAMESPACED", "KIND"];
    if wide {
        headers.extend(["VERBS", "CATEGORIES"]);
    }
    let mut table = Table {
        headers: headers.iter().map(|h| h.to_string()).collect(),
        rows: rows.iter().map(|r| row(ctx.sim.store(), r, wide)).collect(),
    };
    if args.switch("no-headers") {
        table.headers.iter_mut().for_each(String::clear);
        let text = super::render::render_table(&table);
        out.raw(text.split_once('\n').map_or(String::new(), |(_, rest)| rest.to_string()));
    } else {
        out.table(table);
    }
    out
}

fn keep(resource: &ResourceInfo, args: &Args) -> bool {
    let namespaced = args.get("namespaced").is_none_or(|n| (n == "true") == resource.namespaced);
    let group = args.get("api-group").is_none_or(|g| g == resource.group);
    namespaced && group
}

fn row(store: &Store, resource: &ResourceInfo, wide: bool) -> Vec<String> {
    let mut cells = vec![
        resource.plural.to_string(),
        resource.short_names.join(","),
        resource.api_version(),
        resource.namespaced.to_string(),
        resource.kind_name.to_string(),
    ];
    if wide {
        cells.push(format!("[{}]", discovery::verbs(resource.kind).join(" ")));
        cells.push(discovery::categories(store, resource.kind).join(","));
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{lab, run};

    #[test]
    fn the_discovery_table_lists_core_then_named_groups() {
        let mut sim = lab("");
        let text = run(&mut sim, "kubectl api-resources");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "NAME                                SHORTNAMES   APIVERSION                        NAMESPACED   KIND"
        );
        assert_eq!(
            lines[1],
            "configmaps                          cm           v1                                true         ConfigMap"
        );
        assert_eq!(
            lines.last(),
            Some(
                &"storageclasses                      sc           storage.k8s.io/v1                 false        StorageClass"
            )
        );
        // Groups in name order: admissionregistration.k8s.io's policies right after the core group.
        assert!(text.contains("\nservices                            svc          v1                                true         Service\nmutatingadmissionpolicies                        admissionregistration.k8s.io/v1   false        MutatingAdmissionPolicy\n"));
        assert!(text.contains(
            "\nleases                                           coordination.k8s.io/v1            true         Lease\nendpointslices"
        ));
        let text = run(&mut sim, "kubectl api-resources --namespaced=false -o name");
        assert_eq!(
            text,
            "namespaces\nnodes\npersistentvolumes\nmutatingadmissionpolicies.admissionregistration.k8s.io\nmutatingadmissionpolicybindings.admissionregistration.k8s.io\nvalidatingadmissionpolicies.admissionregistration.k8s.io\nvalidatingadmissionpolicybindings.admissionregistration.k8s.io\ncustomresourcedefinitions.apiextensions.k8s.io\napiservices.apiregistration.k8s.io\ningressclasses.networking.k8s.io\nclusterrolebindings.rbac.authorization.k8s.io\nclusterroles.rbac.authorization.k8s.io\ndeviceclasses.resource.k8s.io\nresourceslices.resource.k8s.io\npriorityclasses.scheduling.k8s.io\nstorageclasses.storage.k8s.io\n"
        );
        let text = run(&mut sim, "kubectl api-resources --api-group=apps --no-headers");
        assert_eq!(
            text,
            "controllerrevisions            apps/v1   true   ControllerRevision\ndaemonsets            ds       apps/v1   true   DaemonSet\ndeployments           deploy   apps/v1   true   Deployment\nreplicasets           rs       apps/v1   true   ReplicaSet\nstatefulsets          sts      apps/v1   true   StatefulSet\n"
        );
    }
}
