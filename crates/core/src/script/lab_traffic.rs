//! `lab traffic start|stop|show`: the traffic generator's verbs. Its counts per second and
//! per version are what the UI's traffic panel plots.

use crate::kubectl::args::{self, Flag};
use crate::network::traffic::{Generator, Target, by_version};
use crate::sim::Sim;

pub const START_FLAGS: &[Flag] = &[
    Flag::value("rps", None, "Requests per second (default 100)"),
    Flag::value("port", None, "The Service port (default: its first)"),
    Flag::value("path", None, "The path requested (default /)"),
    Flag::value("host", None, "The Host header (for an ingress controller's or a gateway's Service)"),
    Flag::value("namespace", Some('n'), "The Service's namespace"),
];

pub const SHOW_FLAGS: &[Flag] = &[Flag::switch("failed", None, "Only the seconds in which requests failed")];

pub fn start(sim: &mut Sim, args: &args::Args) -> Result<String, String> {
    let [target] = args.positionals.as_slice() else { return Err("error: exactly one svc/NAME is required".into()) };
    let name = target.strip_prefix("svc/").or_else(|| target.strip_prefix("service/"));
    let name = name.ok_or_else(|| format!("error: traffic goes to a Service: svc/NAME, not \"{target}\""))?;
    let namespace = args.get("namespace").unwrap_or("default").to_string();
    sim.store().get::<crate::api::Service>(&namespace, name).map_err(|e| e.to_string())?;
    let number = |flag: &str, default: u32| -> Result<u32, String> {
        args.get(flag)
            .map_or(Ok(default), |v| v.parse().map_err(|_| format!("error: --{flag}: invalid number \"{v}\"")))
    };
    let rps = number("rps", 100)?;
    if rps == 0 || rps > 100_000 {
        return Err("error: --rps must be between 1 and 100000".into());
    }
    let port = args.get("port").map(|_| number("port", 0).map(|p| p as i32)).transpose()?;
    let path = args.get("path").unwrap_or("/").to_string();
    let host = args.get("host").map(str::to_string);
    sim.start_traffic(Target { namespace, service: name.to_string(), port, path, host }, rps);
    Ok(format!("traffic: {rps} requests per second to svc/{name}"))
}

pub fn stop(sim: &mut Sim, _args: &args::Args) -> Result<String, String> {
    let generator = sim.stop_traffic().ok_or("error: no traffic is running")?;
    Ok(summary(&generator))
}

/// `sent 3000 requests in 30s: 2994 ok (v1=1450 v2=1544), 6 failed (connection refused=6)`.
pub fn summary(generator: &Generator) -> String {
    let total = generator.totals();
    let (ok, failed) = (total.ok_total(), total.failed_total());
    let mut text = format!(
        "traffic to svc/{}: {} requests in {}s, {ok} ok ({})",
        generator.target.service,
        ok + failed,
        generator.seconds.len(),
        by_version(&total.ok)
    );
    text.push_str(&format!(", {failed} failed"));
    if failed > 0 {
        text.push_str(&format!(" ({})", by_version(&total.failed)));
    }
    text
}

pub fn show(sim: &mut Sim, args: &args::Args) -> Result<String, String> {
    let generator = sim.traffic().ok_or("error: no traffic is running")?;
    let only_failed = args.switch("failed");
    let mut rows = vec![["SECOND".to_string(), "OK".into(), "FAILED".into(), "VERSIONS".into(), "FAILURES".into()]];
    for second in generator.seconds.iter().filter(|s| !only_failed || s.failed_total() > 0) {
        rows.push([
            format!("{}s", second.at.since(generator.started).as_millis() / 1000),
            second.ok_total().to_string(),
            second.failed_total().to_string(),
            by_version(&second.ok),
            by_version(&second.failed),
        ]);
    }
    let widths: Vec<usize> = (0..5).map(|i| rows.iter().map(|r| r[i].len()).max().unwrap_or(0)).collect();
    let lines: Vec<String> = rows
        .iter()
        .map(|row| {
            let cells: Vec<String> = row.iter().zip(&widths).map(|(cell, width)| format!("{cell:<width$}")).collect();
            cells.join("   ").trim_end().to_string()
        })
        .collect();
    let mut text = lines.join("\n");
    text.push('\n');
    text.push_str(&summary(generator));
    Ok(text)
}
