//! The live lab, as lessons and the sandbox show it: the terminal, the clock, the timeline
//! with its scrubber, the share link, the cluster view with its machine palette, the traffic panel, the autoscaling chart, the MIG board, the manifest editor, its recent Events, what the last step
//! set in motion and the last request's way through the API server's gates, plus the live region that announces what drags and the clock did.

use crate::lab::autoscaling_chart::AutoscalingChart;
use crate::lab::clock_controls::ClockControls;
use crate::lab::cluster_view::ClusterView;
use crate::lab::event_feed::EventFeed;
use crate::lab::lab_handle::LabHandle;
use crate::lab::lifecycle_picker::LifecyclePicker;
use crate::lab::manifest_editor::ManifestEditor;
use crate::lab::mig_board::MigBoard;
use crate::lab::reconcile_panel::ReconcilePanel;
use crate::lab::request_path_panel::RequestPathPanel;
use crate::lab::share_link::ShareLink;
use crate::lab::terminal::Terminal;
use crate::lab::timeline_view::TimelineView;
use crate::lab::traffic_panel::TrafficPanel;
use leptos::prelude::*;

#[component]
pub fn LabView(lab: LabHandle) -> impl IntoView {
    view! {
        <section class="lab" aria-label="Lab">
            <Show when=move || lab.notice.get().is_some()>
                <p class="lab-notice" role="alert">{move || lab.notice.get().unwrap_or_default()}</p>
            </Show>
            <Terminal lab=lab />
            <div class="lab-controls">
                <ClockControls lab=lab />
                <ShareLink lab=lab />
            </div>
            <TimelineView lab=lab />
            <ClusterView lab=lab />
            <TrafficPanel lab=lab />
            <AutoscalingChart lab=lab />
            <MigBoard lab=lab />
            <ManifestEditor lab=lab />
            <EventFeed lab=lab />
            <LifecyclePicker lab=lab />
            <ReconcilePanel lab=lab />
            <RequestPathPanel lab=lab />
            <p class="visually-hidden" aria-live="polite" id="lab-announcer">{move || lab.announcement.get()}</p>
        </section>
    }
}
