//! `--for=create`: before any object is visited, poll every 500 ms until the finder finds
//! them; each one found then meets the condition. Mirrors
//! staging/src/k8s.io/kubectl/pkg/cmd/wait/create.go and the poll in wait.go's `RunWaitContext`.

use super::resource_finder::ResourceFinder;
use super::wait_error::WaitError;
use super::{Context, Info, Timeout};
use crate::sim::time::Duration;
use serde_json::Value;

/// `wait.PollUntilContextTimeout`'s interval.
const POLL_INTERVAL: Duration = Duration::from_millis(500);

/// `IsCreated`: the finder fetched it, so it exists.
pub fn is_created(info: &Info) -> Value {
    info.object.clone()
}

/// Looks now and every 500 ms of virtual time until the finder finds something and meets no
/// error (a lone NotFound means not yet), failing with the finder's errors or, when the
/// deadline comes first (at once for a zero timeout), `timed out waiting for the condition`.
pub fn poll_until_found(
    ctx: &mut Context<'_>,
    finder: &ResourceFinder,
    timeout: Timeout,
) -> Result<(), Vec<WaitError>> {
    loop {
        let mut found = false;
        let errors = finder.visit(ctx, |_, _| {
            found = true;
            Ok(())
        });
        match errors.as_slice() {
            [] if found => return Ok(()),
            [] => {}
            [error] if error.is_not_found() => {}
            _ => return Err(errors),
        }
        let next = ctx.sim.now().plus(POLL_INTERVAL);
        match timeout {
            Timeout::Until(deadline) if next < deadline => {
                ctx.sim.wait_until(next, |_| false);
            }
            Timeout::Until(deadline) => {
                ctx.sim.wait_until(deadline, |_| false);
                return Err(vec![WaitError::message("timed out waiting for the condition")]);
            }
            Timeout::CheckOnce => return Err(vec![WaitError::message("timed out waiting for the condition")]),
        }
    }
}
