//! How the canvas lays out a big cluster's node cells (`view::node_grid`, counted by its
//! `GridInformer`): their colour and the grid's geometry, so a pointer position finds its node.

/// Cells per row; a cell is `CELL_PX` square with a one-pixel gap.
pub const COLUMNS: usize = 80;
pub const CELL_PX: f64 = 9.0;
pub const PITCH_PX: f64 = CELL_PX + 1.0;

pub use kubelab_core::view::node_grid::{NodeCell, cells};

/// A cell's colour: readiness first (never colour alone: the hover text says it too).
pub fn colour(cell: &NodeCell) -> &'static str {
    match (cell.ready, cell.schedulable) {
        (false, _) => "#c0392b",
        (true, false) => "#b7950b",
        (true, true) => "#2e8b57",
    }
}

/// The canvas size for `count` cells, in pixels.
pub fn size_px(count: usize) -> (f64, f64) {
    let columns = count.clamp(1, COLUMNS);
    (columns as f64 * PITCH_PX, count.div_ceil(COLUMNS).max(1) as f64 * PITCH_PX)
}

/// The top-left corner of cell `index`.
pub fn origin_px(index: usize) -> (f64, f64) {
    ((index % COLUMNS) as f64 * PITCH_PX, (index / COLUMNS) as f64 * PITCH_PX)
}

/// The cell under a point of the canvas, if any.
pub fn cell_at(x_px: f64, y_px: f64, count: usize) -> Option<usize> {
    if x_px < 0.0 || y_px < 0.0 {
        return None;
    }
    let (column, row) = ((x_px / PITCH_PX) as usize, (y_px / PITCH_PX) as usize);
    let index = row * COLUMNS + column;
    (column < COLUMNS && index < count).then_some(index)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::lab_session::LabSession;

    #[test]
    fn counts_pods_per_node() {
        let mut session = LabSession::sandbox_of(50);
        session.run("kubectl create deployment web --image=hello:v1 --replicas=100");
        session.run("sleep 1m");
        let cells = cells(session.lab().sim());
        assert_eq!(cells.len(), 51, "the control plane and 50 workers");
        assert_eq!((cells[0].name.as_str(), cells[1].name.as_str()), ("control-plane", "node-01"));
        // A cell counts every pod on its node: the 100 web pods, kube-proxy and kindnet on each of
        // the 51 nodes, the four static pods, CoreDNS's two and metrics-server.
        assert_eq!(cells.iter().map(|c| c.pods).sum::<u32>(), 100 + 2 * 51 + 4 + 2 + 1);
        assert_eq!(cells.iter().map(|c| c.running).sum::<u32>(), 209);
        assert!(cells.iter().all(|c| c.ready && c.capacity == 110));
        assert!(cells[1].describe().starts_with("node-01: Ready, "), "{}", cells[1].describe());
    }

    #[test]
    fn points_find_their_cells() {
        assert_eq!(size_px(5000), (800.0, 630.0));
        assert_eq!(size_px(3), (30.0, 10.0));
        assert_eq!(cell_at(5.0, 5.0, 5000), Some(0));
        assert_eq!(cell_at(15.0, 12.0, 5000), Some(81));
        assert_eq!(origin_px(81), (10.0, 10.0));
        assert_eq!(cell_at(15.0, 12.0, 81), None);
        assert_eq!(cell_at(-1.0, 0.0, 10), None);
        assert_eq!(cell_at(805.0, 0.0, 5000), None);
    }
}
