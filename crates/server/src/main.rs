//! `kubelab`: the one binary. `kubelab serve` serves the web app, classes, progress, the live
//! instructor dashboard and hosted labs; `kubelab sim` runs a scenario script headless;
//! `kubelab lessons check` lints the curriculum; `kubelab up` serves a local lab's Kubernetes
//! API to kubectl and `kubelab down` stops it. Arguments are parsed with clap, so every
//! subcommand has `--help`, `--flag=value` works, and errors name the flag.

mod api;
mod db;
mod disk_files;
mod hosted_api;
mod hosted_lab;
mod http_server;
mod hub;
mod kube_api;
mod lesson_library;
mod lessons_command;
mod serve;
mod serve_command;
mod sim_command;
mod tls;
mod up_command;
mod wall_clock_script;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// kubelab — learn Kubernetes by breaking a simulated cluster
#[derive(Parser, Debug)]
#[command(name = "kubelab", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Serve the web app, classes and hosted labs
    Serve(serve_command::ServeArgs),
    /// Run a scenario script headless and print its transcript
    Sim(sim_command::SimArgs),
    /// Start a local lab whose Kubernetes API kubectl can use, and write its kubeconfig
    Up(up_command::UpArgs),
    /// Stop a lab started with `kubelab up` and remove its kubeconfig entry
    Down(up_command::DownArgs),
    /// Lint and replay the curriculum, or print the lesson format's schema
    Lessons {
        #[command(subcommand)]
        command: lessons_command::LessonsCommand,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let code = match cli.command {
        Command::Serve(args) => serve_command::main(args),
        Command::Sim(args) => sim_command::main(&args),
        Command::Up(args) => up_command::up(args),
        Command::Down(args) => up_command::down(args),
        Command::Lessons { command } => lessons_command::main(command),
    };
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn errors_name_the_flag_and_equals_works() {
        let error = Cli::try_parse_from(["kubelab", "serve", "--adr", "x"]).unwrap_err().to_string();
        assert!(error.contains("unexpected argument '--adr'"), "{error}");
        let cli = Cli::try_parse_from(["kubelab", "sim", "--seed=7", "x.sim"]).unwrap();
        assert!(matches!(cli.command, Command::Sim(args) if args.seed == 7));
        let error = Cli::try_parse_from(["kubelab", "sim", "--seed", "many", "x.sim"]).unwrap_err().to_string();
        assert!(error.contains("invalid value 'many' for '--seed <N>'"), "{error}");
    }
}
