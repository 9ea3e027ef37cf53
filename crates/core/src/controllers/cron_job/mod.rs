//! placeholder
pub mod schedule;
