//! The objects `wait` visits, found as cli-runtime's resource.Builder finds them for it
//! (`ResourceBuilderFlags.ToBuilder`): `TYPE/NAME…`, `TYPE NAME…`, `TYPE` with `-l`,
//! `--field-selector` or `--all`, or `-f FILE`; each named object fetched and each kind listed
//! at its turn, so a wait on one sees what happened while it waited on another. Mirrors
//! staging/src/k8s.io/cli-runtime/pkg/resource/builder.go (`visitorResult` and its visitors).

use super::wait_error::WaitError;
use super::{Context, Info};
use crate::api::labels::Selector;
use crate::api::{Kind, Object, codec};
use crate::kubectl::args::Args;
use crate::kubectl::resource_args::{self, read_filenames};
use crate::kubectl::{get, namespace_of};
use crate::store::FieldSelector;

/// One step of the visit.
#[derive(Clone, Debug, PartialEq)]
enum Lookup {
    Get {
        kind: Kind,
        namespace: String,
        name: String,
    },
    List(Kind),
    /// A `-f` source that could not be read or mapped: its error, in its place.
    Failed(WaitError),
}

/// What to visit and how lists filter (`ResourceFinder`).
#[derive(Clone, Debug, PartialEq)]
pub struct ResourceFinder {
    lookups: Vec<Lookup>,
    /// Where lists look: one namespace, or every one (`-A`).
    scope: Option<String>,
    labels: String,
    fields: String,
}

impl ResourceFinder {
    /// The builder from the flags, or the error `visitorResult` would return before visiting.
    pub fn new(ctx: &Context<'_>, args: &Args) -> Result<ResourceFinder, WaitError> {
        let namespace = namespace_of(args);
        let scope = (!args.switch("all-namespaces")).then(|| namespace.clone());
        let labels = args.get("selector").unwrap_or("").trim().to_string();
        let fields = args.get("field-selector").unwrap_or("").trim().to_string();
        let mut finder = ResourceFinder { lookups: Vec::new(), scope, labels, fields };
        finder.lookups = if args.all("filename").is_empty() {
            finder.lookups_of_arguments(ctx, args, &namespace)?
        } else {
            from_files(ctx, args, &namespace)?
        };
        Ok(finder)
    }

    /// `ResourceTypeOrNameArgs`, then `visitBySelector`, `visitByResource` or `visitByName`.
    fn lookups_of_arguments(&self, ctx: &Context<'_>, args: &Args, namespace: &str) -> Result<Vec<Lookup>, WaitError> {
        let positionals = &args.positionals;
        let combined = positionals.first().is_some_and(|first| first.contains('/'));
        // `--all` selects everything only for a lone `TYPE` argument (`allowEmptySelector`).
        let select_all = args.switch("all") && positionals.len() == 1 && !combined;
        let selecting = select_all || !self.labels.is_empty() || !self.fields.is_empty();
        if positionals.is_empty() {
            return Err(if selecting {
                WaitError::message("at least one resource must be specified to use a selector")
            } else {
                WaitError::from_kubectl(MISSING_RESOURCE)
            });
        }
        let request = resource_args::parse(ctx.sim.store(), positionals).map_err(|e| WaitError::from_kubectl(&e))?;
        if combined && selecting {
            return Err(WaitError::message(
                "selectors and the all flag cannot be used when passing resource/name arguments",
            ));
        }
        if !combined && selecting {
            if positionals.len() > 1 {
                return Err(WaitError::message("name cannot be provided when a selector is specified"));
            }
            return Ok(request.kinds.into_iter().map(Lookup::List).collect());
        }
        if request.named.is_empty() {
            return Err(WaitError::message("resource(s) were provided, but no name was specified"));
        }
        if self.scope.is_none() && request.named.iter().any(|(kind, _)| kind.info().namespaced) {
            return Err(WaitError::message("a resource cannot be retrieved by name across all namespaces"));
        }
        let get = |(kind, name)| Lookup::Get { kind, namespace: namespace.to_string(), name };
        Ok(request.named.into_iter().map(get).collect())
    }

    /// Visits every object found, in order, calling `visit` on each; the errors of lookups and
    /// visits alike are collected and the rest still visited (the builder's ContinueOnError).
    pub fn visit(
        &self,
        ctx: &mut Context<'_>,
        mut visit: impl FnMut(&mut Context<'_>, Info) -> Result<(), WaitError>,
    ) -> Vec<WaitError> {
        let mut errors = Vec::new();
        for lookup in &self.lookups {
            match self.find(ctx, lookup) {
                Err(error) => errors.push(error),
                Ok(objects) => errors.extend(objects.into_iter().filter_map(|o| visit(ctx, info_of(&o)).err())),
            }
        }
        errors
    }

    fn find(&self, ctx: &Context<'_>, lookup: &Lookup) -> Result<Vec<Object>, WaitError> {
        match lookup {
            Lookup::Get { kind, namespace, name } => Ok(vec![ctx.reader().get(*kind, namespace, name)?]),
            Lookup::List(kind) => self.list(ctx, *kind),
            Lookup::Failed(error) => Err(error.clone()),
        }
    }

    /// The Selector visitor: one list of the kind, its refusal of a selector reworded.
    fn list(&self, ctx: &Context<'_>, kind: Kind) -> Result<Vec<Object>, WaitError> {
        let unable =
            |reason: String| WaitError::Printed(get::unable_to_find(kind, (&self.labels, &self.fields), &reason));
        let labels = Selector::parse(&self.labels).map_err(|e| unable(e.to_string()))?;
        let fields = FieldSelector::parse(&self.fields, kind).map_err(unable)?;
        Ok(ctx.reader().list(kind, self.scope.as_deref(), &labels, &fields)?.items)
    }
}

/// `missingResourceError`.
const MISSING_RESOURCE: &str = "error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'";

fn info_of(object: &Object) -> Info {
    let meta = object.metadata();
    Info {
        kind: object.kind(),
        namespace: meta.namespace.clone(),
        name: meta.name.clone(),
        object: object.to_json_value(),
    }
}

/// `visitByPaths`: each document's object, fetched by name at its turn (`RetrieveLatest`).
fn from_files(ctx: &Context<'_>, args: &Args, namespace: &str) -> Result<Vec<Lookup>, WaitError> {
    if let Some(first) = args.positionals.first() {
        return Err(WaitError::message(if first.contains('/') {
            "resource/name arguments cannot be provided when a path is specified"
        } else {
            "when paths, URLs, or stdin is provided as input, you may not specify resource arguments as well"
        }));
    }
    let mut lookups = Vec::new();
    for source in read_filenames(ctx, args.all("filename")) {
        let documents = match source.documents {
            Ok(documents) => documents,
            Err(message) => {
                lookups.push(Lookup::Failed(WaitError::from_kubectl(&message)));
                continue;
            }
        };
        for document in documents {
            lookups.push(lookup_of(ctx, &document, &source.name, namespace));
        }
    }
    Ok(lookups)
}

fn lookup_of(ctx: &Context<'_>, document: &serde_json::Value, source: &str, namespace: &str) -> Lookup {
    let kind = match codec::kind_of(document) {
        Ok(kind) => kind,
        Err(err) => return Lookup::Failed(WaitError::message(format!("error validating \"{source}\": {err}"))),
    };
    if let Err(message) = resource_args::mapping(ctx.sim.store(), kind, document, source) {
        return Lookup::Failed(WaitError::from_kubectl(&message));
    }
    let text = |pointer: &str| document.pointer(pointer).and_then(|v| v.as_str()).map(str::to_string);
    let name = text("/metadata/name").unwrap_or_default();
    let namespace = text("/metadata/namespace").unwrap_or_else(|| namespace.to_string());
    Lookup::Get { kind, namespace, name }
}
