//! Static CEL types as the checker sees them (cel-go `types.Type`), printed with cel-go's names.

use std::fmt;

/// The type of an expression or a declared variable.
#[derive(Clone, Debug, PartialEq)]
pub enum Type {
    /// Unknown until run time (cel-go `dyn`); assignable to and from every type.
    Dyn,
    Null,
    Bool,
    Int,
    Uint,
    Double,
    String,
    Bytes,
    List(Box<Type>),
    Map(Box<Type>, Box<Type>),
    /// Kubernetes' `kubernetes.Quantity` (apiserver `cel.QuantityType`).
    Quantity,
    /// Kubernetes' `kubernetes.Semver` (apiserver `cel.SemverType`).
    Semver,
    /// A declared object type with named fields (apiserver `DeclType` of kind object).
    Object(ObjectType),
    /// The type of a type value such as `int` or `type(x)`. cel-go tracks the described type
    /// (`type(int)`); this evaluator does not, so it prints as plain `type`.
    Type,
}

/// An object type: a name such as `kubernetes.DRADevice` and its fields.
#[derive(Clone, Debug)]
pub struct ObjectType {
    pub name: String,
    pub fields: Vec<(String, Type)>,
}

impl ObjectType {
    pub fn new(name: &str, fields: Vec<(&str, Type)>) -> ObjectType {
        ObjectType { name: name.to_owned(), fields: fields.into_iter().map(|(n, t)| (n.to_owned(), t)).collect() }
    }

    /// The declared type of a field, if the object has it.
    pub fn field(&self, name: &str) -> Option<&Type> {
        self.fields.iter().find(|(n, _)| n == name).map(|(_, t)| t)
    }
}

/// Object types are nominal: two with the same name are the same type.
impl PartialEq for ObjectType {
    fn eq(&self, other: &ObjectType) -> bool {
        self.name == other.name
    }
}

impl Type {
    pub fn list(elem: Type) -> Type {
        Type::List(Box::new(elem))
    }

    pub fn map(key: Type, value: Type) -> Type {
        Type::Map(Box::new(key), Box::new(value))
    }

    /// The name cel-go's checker uses in error messages (`checker.FormatCELType`), which differs
    /// from `Display` only for null: `null` rather than `null_type`.
    pub(crate) fn error_name(&self) -> String {
        match self {
            Type::Null => "null".to_owned(),
            Type::List(e) => format!("list({})", e.error_name()),
            Type::Map(k, v) => format!("map({}, {})", k.error_name(), v.error_name()),
            other => other.to_string(),
        }
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Dyn => f.write_str("dyn"),
            Type::Null => f.write_str("null_type"),
            Type::Bool => f.write_str("bool"),
            Type::Int => f.write_str("int"),
            Type::Uint => f.write_str("uint"),
            Type::Double => f.write_str("double"),
            Type::String => f.write_str("string"),
            Type::Bytes => f.write_str("bytes"),
            Type::List(e) => write!(f, "list({e})"),
            Type::Map(k, v) => write!(f, "map({k}, {v})"),
            Type::Quantity => f.write_str("kubernetes.Quantity"),
            Type::Semver => f.write_str("kubernetes.Semver"),
            Type::Object(o) => f.write_str(&o.name),
            Type::Type => f.write_str("type"),
        }
    }
}
