//! NodeResourcesFit's scoring strategy as a profile's file sets it (upstream apis/config
//! `ScoringStrategy`): data the cycle carries to the plugin, kept in the framework so that the
//! framework and the plugins read it without importing the file's parser (`scheduler/config`).

/// Upstream `ScoringStrategy`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoringStrategy {
    pub kind: ScoringStrategyType,
    pub resources: Vec<ResourceSpec>,
    /// `requestedToCapacityRatio.shape`, for that type only; scores on the file's 0–10 scale.
    pub shape: Vec<UtilizationShapePoint>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoringStrategyType {
    /// Spread: the node with the most free room wins (the default).
    LeastAllocated,
    /// Bin-pack: the fullest node that still fits wins.
    MostAllocated,
    /// A piecewise-linear score of each resource's utilisation.
    RequestedToCapacityRatio,
}

impl ScoringStrategyType {
    pub const NAMES: [&'static str; 3] = ["LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"];

    pub fn parse(text: &str) -> Option<ScoringStrategyType> {
        match text {
            "LeastAllocated" => Some(ScoringStrategyType::LeastAllocated),
            "MostAllocated" => Some(ScoringStrategyType::MostAllocated),
            "RequestedToCapacityRatio" => Some(ScoringStrategyType::RequestedToCapacityRatio),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

/// A resource a strategy scores, with its weight (1–100).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResourceSpec {
    pub name: String,
    pub weight: i64,
}

/// One point of the ratio strategy's function: utilisation 0–100 → score 0–10.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UtilizationShapePoint {
    pub utilization: i64,
    pub score: i64,
}
