//! What several plugins share (upstream pkg/scheduler/framework/plugins/helper).

/// Upstream `helper.DefaultNormalizeScore`: scaled so the highest is 100 (reversed: lowest).
pub fn default_normalize_score(scores: &mut [i64], reverse: bool) {
    let max = scores.iter().copied().max().unwrap_or(0);
    if max == 0 {
        if reverse {
            scores.iter_mut().for_each(|s| *s = 100);
        }
        return;
    }
    for s in scores.iter_mut() {
        let scaled = 100 * *s / max;
        *s = if reverse { 100 - scaled } else { scaled };
    }
}
