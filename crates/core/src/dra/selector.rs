//! DRA's CEL environment (k8s.io/dynamic-resource-allocation/cel): one variable, `device`, of
//! type `kubernetes.DRADevice` with its driver, attributes (by domain, then name) and
//! capacities; the checks a selector passes on write; and its evaluation against a device
//! during allocation, each program compiled once per attempt and each device's value built once.

use super::device_set::{DeviceId, SliceDevice};
use crate::api::resource_claim::DeviceSelector;
use crate::api::resource_slice::DeviceAttribute;
use crate::api::{DeviceClass, ResourceClaim};
use crate::cel::{self, Activation, Env, MapValue, ObjectType, ObjectValue, Program, Type, Value};
use std::collections::BTreeMap;

/// `CELSelectorExpressionMaxLength`.
pub const MAX_EXPRESSION_LENGTH: usize = 10 * 1024;

const DEVICE_TYPE: &str = "kubernetes.DRADevice";

/// The environment selectors compile in.
fn env() -> Env {
    let device = ObjectType {
        name: DEVICE_TYPE.into(),
        fields: vec![
            ("driver".into(), Type::String),
            ("attributes".into(), map_of(map_of(Type::Dyn))),
            ("capacity".into(), map_of(map_of(Type::Quantity))),
            // DRAConsumableCapacity is on in 1.36.
            ("allowMultipleAllocations".into(), Type::Bool),
        ],
    };
    let mut env = Env::new();
    env.declare("device", Type::Object(device));
    env
}

fn map_of(value: Type) -> Type {
    Type::Map(Box::new(Type::String), Box::new(value))
}

/// The write-time check: it compiles and yields a bool (upstream's `compile` for validation).
pub fn check(expression: &str) -> Result<(), String> {
    compile(expression).map(|_| ())
}

fn compile(expression: &str) -> Result<Program, String> {
    let program = cel::compile(expression, &env()).map_err(|e| format!("compilation failed: {e}"))?;
    match program.result_type() {
        Type::Bool | Type::Dyn => Ok(program),
        other => Err(format!("must evaluate to bool or the unknown type, not {other}")),
    }
}

/// Whether `text` is a semver 2.0.0 version, as a `version` attribute must be.
pub fn parse_semver(text: &str) -> Result<(), String> {
    cel::Semver::parse(text).map(|_| ()).map_err(|e| e.to_string())
}

/// Compiled selectors and device values, for one scheduling attempt.
pub struct Selectors {
    classes: BTreeMap<String, Vec<String>>,
    programs: BTreeMap<String, Result<Program, String>>,
    devices: BTreeMap<DeviceId, Activation>,
}

impl Selectors {
    /// For the cluster's DeviceClasses.
    pub fn new<'c>(classes: impl IntoIterator<Item = &'c DeviceClass>) -> Selectors {
        let classes = classes
            .into_iter()
            .map(|c| (c.metadata.name.clone(), c.spec.selectors.iter().map(expression_of).collect()))
            .collect();
        Selectors { classes, programs: BTreeMap::new(), devices: BTreeMap::new() }
    }

    /// Every selector of the class matches (upstream: `class <name>: selector #<i>: …`).
    pub fn class_matches(&mut self, class: &str, device: &SliceDevice) -> Result<bool, String> {
        let expressions = self.classes.get(class).cloned().unwrap_or_default();
        self.all_match(&expressions, device, &format!("class {class}"))
    }

    /// Every selector of the request matches (`claim <ns>/<name>: selector #<i>: …`).
    pub fn claim_matches(
        &mut self,
        claim: &ResourceClaim,
        selectors: &[DeviceSelector],
        device: &SliceDevice,
    ) -> Result<bool, String> {
        let expressions: Vec<String> = selectors.iter().map(expression_of).collect();
        let who = format!("claim {}/{}", claim.metadata.namespace, claim.metadata.name);
        self.all_match(&expressions, device, &who)
    }

    fn all_match(&mut self, expressions: &[String], device: &SliceDevice, who: &str) -> Result<bool, String> {
        for (i, expression) in expressions.iter().enumerate() {
            let program = self.programs.entry(expression.clone()).or_insert_with(|| compile(expression));
            let program = match program {
                Ok(program) => program,
                Err(error) => return Err(format!("{who}: selector #{i}: CEL compile error: {error}")),
            };
            let activation = self.devices.entry(device.id.clone()).or_insert_with(|| activation(device));
            match program.eval(activation) {
                Ok(Value::Bool(true)) => {}
                Ok(Value::Bool(false)) => return Ok(false),
                Ok(other) => {
                    let message = format!("CEL result of type {} could not be converted to bool", other.type_name());
                    return Err(format!("{who}: selector #{i}: CEL runtime error: {message}"));
                }
                Err(error) => return Err(format!("{who}: selector #{i}: CEL runtime error: {error}")),
            }
        }
        Ok(true)
    }
}

fn expression_of(selector: &DeviceSelector) -> String {
    selector.cel.as_ref().map(|c| c.expression.clone()).unwrap_or_default()
}

/// `device` as the selectors see it: attributes and capacities by domain then name; a domain
/// the device does not have is an empty map (so `"x.com" in device.attributes` is false and a
/// name under it is `no such key`).
fn activation(device: &SliceDevice) -> Activation {
    let mut attributes: BTreeMap<String, BTreeMap<String, Value>> = BTreeMap::new();
    for (name, attribute) in &device.attributes {
        let (domain, id) = name.rsplit_once('/').unwrap_or(("", name));
        attributes.entry(domain.to_string()).or_default().insert(id.to_string(), attribute_value(attribute));
    }
    let mut capacity: BTreeMap<String, BTreeMap<String, Value>> = BTreeMap::new();
    for (name, value) in &device.capacity {
        let (domain, id) = name.rsplit_once('/').unwrap_or(("", name));
        capacity.entry(domain.to_string()).or_default().insert(id.to_string(), Value::Quantity(value.value));
    }
    let object = ObjectValue::new(DEVICE_TYPE)
        .with("driver", Value::string(&device.id.driver))
        .with("attributes", domains(attributes))
        .with("capacity", domains(capacity))
        .with("allowMultipleAllocations", Value::Bool(device.allow_multiple_allocations));
    let mut activation = Activation::new();
    activation.insert("device", Value::object(object));
    activation
}

fn domains(by_domain: BTreeMap<String, BTreeMap<String, Value>>) -> Value {
    let mut map = MapValue::new().with_missing(Value::map(MapValue::new()));
    for (domain, names) in by_domain {
        let mut inner = MapValue::new();
        for (name, value) in names {
            inner.insert(name.as_str(), value);
        }
        map.insert(domain.as_str(), Value::map(inner));
    }
    Value::map(map)
}

/// int, bool, string, or a version as a `kubernetes.Semver`.
fn attribute_value(attribute: &DeviceAttribute) -> Value {
    if let Some(n) = attribute.int {
        return Value::Int(n);
    }
    if let Some(b) = attribute.bool {
        return Value::Bool(b);
    }
    if let Some(version) = &attribute.version {
        return cel::Semver::parse(version).map_or_else(|_| Value::string(version), Value::Semver);
    }
    Value::string(attribute.string.as_deref().unwrap_or_default())
}
