//! The thread that runs one container (containerd's shim, krustlet's per-pod task): it owns
//! the guest's store, ticks it when its next event is due, opens the ports it listens on,
//! hands it requests, delivers SIGTERM and SIGKILL, and records how it ended.

use crate::container::{Message, Shared};
use crate::guest::Guest;
use crate::http::{Answer, Listener, Request};
use crate::state::Ending;
use std::net::IpAddr;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender};
use std::sync::{Arc, PoisonError};
use std::time::{Duration, Instant};

pub struct Shim {
    pub guest: Guest,
    pub shared: Arc<Shared>,
    pub inbox: Receiver<Message>,
    /// For the listeners, which send requests into `inbox`.
    pub outbox: SyncSender<Message>,
    pub ip: IpAddr,
    pub wall_clock_cap: Duration,
    pub listeners: Vec<Listener>,
}

impl Shim {
    /// Runs the container until its process ends; then closes its ports and records why.
    pub fn run(mut self) {
        let ending = self.serve();
        self.publish_usage();
        self.listeners.clear();
        self.shared.finish(ending);
    }

    fn serve(&mut self) -> Ending {
        loop {
            if self.shared.killed.load(Ordering::SeqCst) {
                return Ending::killed(None);
            }
            let grace_end = match self.deliver_sigterm() {
                Ok(grace_end) => grace_end,
                Err(ending) => return ending,
            };
            if grace_end.is_some_and(|end| Instant::now() >= end) {
                return Ending::killed(None);
            }
            let next = match self.guest.tick(self.shared.since_start_ms()) {
                Ok(next) => next,
                Err(failure) => return failure.ending(),
            };
            if let Some(ending) = self.after_call() {
                return ending;
            }
            let due = next.map(|ms| self.shared.started + Duration::from_millis(ms));
            let wake = [due, grace_end].into_iter().flatten().min();
            let message = match wake {
                Some(at) => self.inbox.recv_timeout(at.saturating_duration_since(Instant::now())),
                None => self.inbox.recv().map_err(|_| RecvTimeoutError::Disconnected),
            };
            match message {
                Ok(Message::Http(request)) => {
                    // What fell due before the request (a log line, a port) happens first, as
                    // in a process that runs on its own: a late wake-up must not reorder them.
                    if let Err(failure) = self.guest.tick(self.shared.since_start_ms()) {
                        return failure.ending();
                    }
                    if let Some(ending) = self.after_call().or_else(|| self.answer(request)) {
                        return ending;
                    }
                }
                Ok(Message::Wake) | Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Ending::killed(None),
            }
        }
    }

    /// Delivers a pending SIGTERM once; the end of its grace period, if one was sent.
    fn deliver_sigterm(&mut self) -> Result<Option<Instant>, Ending> {
        let (deadline, deliver) = {
            let mut signals = self.shared.signals.lock().unwrap_or_else(PoisonError::into_inner);
            let deliver = signals.sigterm.is_some() && !signals.sigterm_delivered;
            signals.sigterm_delivered |= deliver;
            (signals.sigterm, deliver)
        };
        if deliver {
            self.guest.sigterm(self.shared.since_start_ms()).map_err(|failure| failure.ending())?;
            if let Some(ending) = self.after_call() {
                return Err(ending);
            }
        }
        Ok(deadline)
    }

    fn answer(&mut self, request: Request) -> Option<Ending> {
        match self.guest.http(&request.target, self.shared.since_start_ms()) {
            Ok((status, latency, body)) => {
                let _ = request.reply.try_send(Answer { status, latency, body });
                self.after_call()
            }
            Err(failure) => Some(failure.ending()),
        }
    }

    /// Makes the guest's peak memory and CPU time readable from the container's handle.
    fn publish_usage(&self) {
        *self.shared.peak_memory_bytes.lock().unwrap_or_else(PoisonError::into_inner) = self.guest.peak_memory_bytes();
        let nanos = u64::try_from(self.guest.cpu_usage().as_nanos()).unwrap_or(u64::MAX);
        self.shared.cpu_usage_nanos.store(nanos, Ordering::Relaxed);
    }

    /// Acts on what the guest asked during a call: its log lines, ports to open, its exit.
    fn after_call(&mut self) -> Option<Ending> {
        let (logs, listens, exit) = self.guest.take_requests();
        self.shared.log(logs);
        self.publish_usage();
        for port in listens {
            let opened = Listener::open(
                self.ip,
                port,
                self.outbox.clone(),
                Message::Http,
                self.wall_clock_cap + Duration::from_secs(1),
            );
            match opened {
                Ok(listener) => self.listeners.push(listener),
                Err(err) => {
                    // What a Go server prints and does when its port is taken.
                    let line = format!("listen tcp {}: bind: {err}", std::net::SocketAddr::new(self.ip, port));
                    self.shared.log(vec![(std::time::SystemTime::now(), line)]);
                    return Some(Ending::exited(1));
                }
            }
        }
        exit.map(Ending::exited)
    }
}
