//! `kubectl describe poddisruptionbudget`: its bound, selector and the four counts of its
//! status, then its events. Mirrors `describePodDisruptionBudgetV1` in
//! staging/src/k8s.io/kubectl/pkg/describe/describe.go.

use super::events::{self, EventQuery};
use super::{Describer, LEVEL_0, LEVEL_2, PrefixWriter};
use crate::api::PodDisruptionBudget;

pub fn describe(describer: &Describer<'_>, pdb: &PodDisruptionBudget) -> String {
    let mut w = PrefixWriter::default();
    let (spec, status) = (&pdb.spec, &pdb.status);
    w.write(LEVEL_0, &format!("Name:\t{}\n", pdb.metadata.name));
    w.write(LEVEL_0, &format!("Namespace:\t{}\n", pdb.metadata.namespace));
    if let Some(min) = &spec.min_available {
        w.write(LEVEL_0, &format!("Min available:\t{min}\n"));
    } else if let Some(max) = &spec.max_unavailable {
        w.write(LEVEL_0, &format!("Max unavailable:\t{max}\n"));
    }
    let selector = spec.selector.as_ref().map_or("<unset>".to_string(), |s| s.format());
    w.write(LEVEL_0, &format!("Selector:\t{selector}\n"));
    w.write(LEVEL_0, "Status:\n");
    w.write(LEVEL_2, &format!("Allowed disruptions:\t{}\n", status.disruptions_allowed));
    w.write(LEVEL_2, &format!("Current:\t{}\n", status.current_healthy));
    w.write(LEVEL_2, &format!("Desired:\t{}\n", status.desired_healthy));
    w.write(LEVEL_2, &format!("Total:\t{}\n", status.expected_pods));
    events::describe(&mut w, describer, events::search(describer, &EventQuery::for_object(pdb)));
    w.finish()
}
