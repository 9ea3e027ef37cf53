//! The lab: a live simulation as the page drives it (`lab_session`, plain Rust) and everything
//! drawn around it: terminal, clock, timeline, cluster view and node grid, drag and drop,
//! inspector, event feed, lifecycle chart, reconcile panel, request path panel, manifest editor.

pub mod autoscaling_chart;
pub mod clock_controls;
pub mod cluster_view;
pub mod completion;
pub mod drag_commands;
pub mod event_feed;
pub mod inspector;
pub mod inspector_view;
pub mod lab_handle;
pub mod lab_session;
pub mod lab_view;
pub mod lifecycle_chart;
pub mod lifecycle_picker;
pub mod manifest_editor;
pub mod manifest_errors;
pub mod mig_board;
pub mod node_canvas;
pub mod node_dnd;
pub mod node_grid;
pub mod node_palette;
pub mod permalink;
pub mod pod_dnd;
pub mod reconcile_panel;
pub mod request_path_panel;
pub mod share_link;
pub mod shared_lab;
pub mod sliced_run;
pub mod terminal;
pub mod timeline;
pub mod timeline_view;
pub mod traffic_panel;
pub mod yaml_highlight;
pub mod yaml_tokens;
