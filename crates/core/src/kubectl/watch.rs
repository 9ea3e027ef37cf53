//! `kubectl get --watch`: after the listing, one row per change to a watched object, printed
//! through the same printer. Mirrors the watch half of staging/src/k8s.io/kubectl/pkg/cmd/get/get.go
//! and the `RememberWidths` tabwriter (cli-runtime printers.GetNewTabWriter) that keeps columns
//! from narrowing between rows. A `Watch` is a cursor into the store's watch log plus filters;
//! callers `poll` it (the scenario runner after each sleep, the terminal until Ctrl-C).

use super::get::{Format, Labels, table_for};
use super::output::{Block, Item, Output, Table};
use super::render::{to_json, to_yaml};
use crate::api::labels::Selector;
use crate::api::{Kind, Object};
use crate::runtime::informer::{Changes, Informer};
use crate::sim::Sim;
use crate::sim::time::SimTime;
use crate::store::FieldSelector;
use crate::store::kinds::matches_fields;
use crate::store::watch::WatchEventType;

/// An open watch stream: what it watches, how it prints, and how far it has read.
#[derive(Clone, Debug)]
pub struct Watch {
    pub(super) kind: Kind,
    /// `None` across all namespaces (`-A`).
    pub(super) namespace: Option<String>,
    /// Only these names, when the command named objects.
    pub(super) names: Vec<String>,
    pub(super) labels: Selector,
    pub(super) fields: FieldSelector,
    pub(super) format: Format,
    pub(super) all_namespaces: bool,
    pub(super) label_columns: Labels,
    /// `--watch-only`: the header comes with the first row.
    pub(super) header_pending: bool,
    /// `--show-managed-fields`: documents keep `metadata.managedFields`.
    pub(super) show_managed_fields: bool,
    /// How far it has read the watch log.
    pub(super) informer: Informer,
    /// Widths of the table columns so far (the tabwriter never narrows them).
    widths: Vec<usize>,
    /// Documents printed so far (YAML separates them with `---`).
    printed: usize,
    open: bool,
}

impl Watch {
    /// Opens a stream from the current resourceVersion; `listing` (what the command printed
    /// first) sets the column widths.
    pub(super) fn open(sim: &mut Sim, mut watch: Watch, listing: &Output) -> Watch {
        sim.store_mut().snapshots_mut().open(watch.kind);
        watch.informer = Informer::from_now(sim.store());
        watch.open = true;
        for item in &listing.items {
            if let Item::Stdout(Block::Table(table)) = item {
                watch.widths = remember(&[], std::iter::once(&table.headers).chain(&table.rows));
            }
        }
        watch
    }

    pub(super) fn new(kind: Kind, format: Format) -> Watch {
        Watch {
            kind,
            namespace: None,
            names: Vec::new(),
            labels: Selector::everything(),
            fields: FieldSelector::everything(),
            format,
            all_namespaces: false,
            label_columns: Labels::default(),
            header_pending: false,
            show_managed_fields: false,
            informer: Informer::default(),
            widths: Vec::new(),
            printed: 0,
            open: false,
        }
    }

    /// The lines printed for every change since the last poll, in order (no trailing newlines).
    pub fn poll(&mut self, sim: &Sim) -> Vec<String> {
        let store = sim.store();
        let events: Vec<_> = match self.informer.poll(store) {
            Changes::Events(events) => {
                events.filter(|e| self.selects(e.kind, &e.namespace, &e.name)).cloned().collect()
            }
            Changes::Relist => return self.relisted(sim),
        };
        let mut lines = Vec::new();
        for event in events {
            let object = match store.snapshots().at(event.resource_version) {
                Some(object) => Some(object.clone()),
                None if event.type_ == WatchEventType::Deleted => None,
                None => store.get_object(event.kind, &event.namespace, &event.name).ok(),
            };
            let Some(object) = object.filter(|o| self.labels.matches(&o.metadata().labels)) else { continue };
            if matches_fields(&object, &self.fields) {
                lines.extend(self.print(&object, event.time));
            }
        }
        lines
    }

    /// The stream fell further behind than the watch log reaches: like a client that lists again
    /// after `410 Gone`, it prints every watched object as it is now.
    fn relisted(&mut self, sim: &Sim) -> Vec<String> {
        let store = sim.store();
        let namespace = if self.kind.info().namespaced { self.namespace.as_deref() } else { None };
        let mut objects = store.list_objects(self.kind, namespace, &self.labels, &self.fields);
        objects.retain(|o| self.names.is_empty() || self.names.contains(&o.metadata().name));
        objects.iter().flat_map(|object| self.print(object, store.now())).collect()
    }

    /// Ends the stream (Ctrl-C): the store stops keeping states for it.
    pub fn close(mut self, sim: &mut Sim) {
        if std::mem::take(&mut self.open) {
            sim.store_mut().snapshots_mut().close(self.kind);
        }
    }

    fn selects(&self, kind: Kind, namespace: &str, name: &str) -> bool {
        let in_scope = !kind.info().namespaced || self.namespace.as_deref().is_none_or(|n| n == namespace);
        kind == self.kind && in_scope && (self.names.is_empty() || self.names.iter().any(|n| n == name))
    }

    /// One object as the command's printer prints it at `time`.
    fn print(&mut self, object: &Object, time: SimTime) -> Vec<String> {
        let mut table = match &self.format {
            Format::Table { wide } => {
                let mut table = table_for(self.kind, &[object], time, *wide, false, self.all_namespaces);
                self.label_columns.add_columns(&mut table, &[object]);
                table
            }
            Format::CustomColumns(columns) => columns.table(std::slice::from_ref(object)),
            Format::Name => {
                return vec![format!("{}/{}", self.kind.info().singular_qualified(), object.metadata().name)];
            }
            Format::JsonPath(template) => return vec![template.execute(&object.to_json_value())],
            Format::Document(format) => return self.document(object, *format),
        };
        if !std::mem::take(&mut self.header_pending) {
            table.headers.clear();
        }
        self.rows(&table)
    }

    fn document(&mut self, object: &Object, format: super::output::DocumentFormat) -> Vec<String> {
        self.printed += 1;
        let value = object.to_json_value();
        let value = if self.show_managed_fields { value } else { super::managed_fields::omit(value) };
        let text = match format {
            super::output::DocumentFormat::Yaml if self.printed > 1 => format!("---\n{}", to_yaml(&value)),
            super::output::DocumentFormat::Yaml => to_yaml(&value),
            super::output::DocumentFormat::Json => to_json(&value),
        };
        text.lines().map(String::from).collect()
    }

    /// Rows (and the header, when `table` has one) padded to the widths remembered so far.
    fn rows(&mut self, table: &Table) -> Vec<String> {
        let rows: Vec<&Vec<String>> =
            (!table.headers.is_empty()).then_some(&table.headers).into_iter().chain(&table.rows).collect();
        self.widths = remember(&self.widths, rows.iter().copied());
        rows.iter().map(|row| pad(row, &self.widths)).collect()
    }
}

/// Column widths grown to fit `rows`.
fn remember<'a>(widths: &[usize], rows: impl Iterator<Item = &'a Vec<String>>) -> Vec<usize> {
    let mut widths = widths.to_vec();
    for row in rows {
        for (i, cell) in row.iter().enumerate() {
            if i == widths.len() {
                widths.push(0);
            }
            widths[i] = widths[i].max(cell.chars().count());
        }
    }
    widths
}

/// Cells left-aligned, each padded to its column's width plus 3 spaces; the last one unpadded.
fn pad(row: &[String], widths: &[usize]) -> String {
    let mut line = String::new();
    for (i, cell) in row.iter().enumerate() {
        line.push_str(cell);
        if i + 1 < row.len() {
            line.push_str(&" ".repeat(widths[i].saturating_sub(cell.chars().count()) + 3));
        }
    }
    line.trim_end().to_string()
}

#[cfg(test)]
mod tests {
    use crate::kubectl::create::tests::kubectl;
    use crate::kubectl::fixture::{hello_lab, pod_named};
    use crate::kubectl::{Context, MemoryFiles, run_watching};
    use crate::sim::time::Duration;

    fn open(sim: &mut crate::sim::Sim, line: &str) -> (String, Option<super::Watch>) {
        let files = MemoryFiles::new();
        let mut ctx = Context { sim, files: &files, stdin: None };
        let argv = crate::script::words::split(line).unwrap();
        let (out, watch) = run_watching(&mut ctx, &argv);
        ctx.sim.settle();
        (out.render(), watch)
    }

    #[test]
    fn a_watch_streams_each_change_with_the_objects_state_then() {
        let mut sim = hello_lab(11);
        let victim = pod_named(&sim, "hello-");
        let (listing, watch) = open(&mut sim, "get pods -w");
        let mut watch = watch.expect("get -w opens a watch");
        assert!(listing.starts_with("NAME "), "{listing}");
        assert!(watch.poll(&sim).is_empty(), "nothing changed yet");
        kubectl(&mut sim, &format!("delete pod {victim} --wait=false"));
        sim.advance(Duration::from_secs(2));
        let rows = watch.poll(&sim);
        let statuses = |name: &str| -> Vec<String> {
            rows.iter()
                .filter(|r| r.starts_with(name))
                .map(|r| r.split_whitespace().nth(2).unwrap().to_string())
                .collect()
        };
        assert_eq!(statuses(&victim).first().map(String::as_str), Some("Terminating"), "{rows:?}");
        assert_eq!(statuses(&victim).last().map(String::as_str), Some("Completed"), "{rows:?}");
        let fresh = rows.iter().find(|r| r.contains("Pending")).expect("a replacement appears");
        let fresh = fresh.split_whitespace().next().unwrap();
        assert!(statuses(fresh).contains(&"ContainerCreating".to_string()), "{rows:?}");
        assert!(watch.poll(&sim).is_empty());
        watch.close(&mut sim);
        assert!(!sim.store().snapshots().wants(crate::api::Kind::Pod));
    }

    #[test]
    fn watch_only_prints_the_header_with_the_first_change() {
        let mut sim = hello_lab(11);
        let (listing, watch) = open(&mut sim, "get deploy --watch-only");
        assert_eq!(listing, "");
        let mut watch = watch.unwrap();
        kubectl(&mut sim, "scale deploy hello --replicas=4");
        let rows = watch.poll(&sim);
        assert!(rows[0].starts_with("NAME    READY"), "{rows:?}");
        assert!(rows[1].starts_with("hello   3/4"), "{rows:?}");
        let (text, watch) = open(&mut sim, "get deploy,pods -w");
        assert_eq!((text.as_str(), watch.is_none()), ("error: you may only specify a single resource type\n", true));
    }
}
