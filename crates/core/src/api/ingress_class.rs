//! IngressClass (networking.k8s.io/v1, cluster-scoped): names the controller that carries out
//! the Ingresses of the class; the one annotated as default is given to Ingresses that name none.

use super::meta::ObjectMeta;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

/// The annotation that makes a class the default (the DefaultIngressClass admission plugin).
pub const DEFAULT_CLASS_ANNOTATION: &str = "ingressclass.kubernetes.io/is-default-class";

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct IngressClass {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default)]
    pub spec: IngressClassSpec,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct IngressClassSpec {
    pub controller: Option<String>,
    pub parameters: Option<IngressClassParameters>,
}

#[skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct IngressClassParameters {
    pub api_group: Option<String>,
    pub kind: String,
    pub name: String,
    pub namespace: Option<String>,
    pub scope: Option<String>,
}

impl IngressClass {
    pub fn is_default(&self) -> bool {
        self.metadata.annotations.get(DEFAULT_CLASS_ANNOTATION) == Some("true")
    }
}
