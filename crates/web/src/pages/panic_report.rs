//! What a crash leaves behind: a panic hook that puts an error panel on the page with a
//! report to copy (the lesson, its seed and every command run), instead of a frozen page.
//! In wasm32 a panic aborts the module, so the panel is built with plain DOM calls from the hook.

use std::cell::RefCell;

#[derive(Default)]
struct ReportContext {
    lesson_id: String,
    seed: u64,
    commands: Vec<String>,
}

thread_local! {
    static CONTEXT: RefCell<ReportContext> = RefCell::new(ReportContext::default());
}

/// A lab started: later commands are logged against this lesson and seed.
pub fn begin(lesson_id: &str, seed: u64) {
    CONTEXT.with(|context| {
        if let Ok(mut context) = context.try_borrow_mut() {
            *context = ReportContext { lesson_id: lesson_id.to_string(), seed, commands: Vec::new() };
        }
    });
}

/// Logs a command before it runs, so the one that crashed is in the report.
pub fn record(command: &str) {
    CONTEXT.with(|context| {
        if let Ok(mut context) = context.try_borrow_mut() {
            context.commands.push(command.to_string());
        }
    });
}

/// The text a learner can paste into a bug report.
pub fn report(message: &str) -> String {
    let (lesson_id, seed, commands) = CONTEXT.with(|context| match context.try_borrow() {
        Ok(c) => (c.lesson_id.clone(), c.seed, c.commands.clone()),
        Err(_) => (String::from("?"), 0, Vec::new()),
    });
    let mut text = format!(
        "kubelab {}\nlesson: {lesson_id}\nseed: {seed}\npanic: {message}\ncommands:\n",
        env!("CARGO_PKG_VERSION")
    );
    for command in commands {
        text.push_str(&format!("  {command}\n"));
    }
    text
}

/// Installs the hook (once, at start).
pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        let text = report(&info.to_string());
        web_sys::console::error_1(&text.clone().into());
        show_panel(&text);
    }));
}

/// Puts the error panel at the top of the page; best effort, since the page may be half-built.
fn show_panel(report: &str) -> Option<()> {
    let document = web_sys::window()?.document()?;
    let body = document.body()?;
    let panel = document.create_element("section").ok()?;
    panel.set_id("crash-panel");
    panel.set_class_name("error-panel crash");
    panel.set_attribute("role", "alert").ok()?;
    let heading = document.create_element("h2").ok()?;
    heading.set_text_content(Some("The simulator stopped"));
    let explanation = document.create_element("p").ok()?;
    explanation.set_text_content(Some(
        "Something went wrong inside kubelab, not in your commands. Copy the report below into a bug \
         report, then reload the page to start the lab again.",
    ));
    let label = document.create_element("label").ok()?;
    label.set_attribute("for", "crash-report").ok()?;
    label.set_text_content(Some("Report"));
    let area = document.create_element("textarea").ok()?;
    area.set_id("crash-report");
    area.set_attribute("readonly", "").ok()?;
    area.set_attribute("rows", "8").ok()?;
    area.set_text_content(Some(report));
    let reload = document.create_element("a").ok()?;
    reload.set_attribute("href", "").ok()?;
    reload.set_text_content(Some("Reload the page"));
    for child in [&heading, &explanation, &label, &area, &reload] {
        panel.append_child(child).ok()?;
    }
    body.insert_before(&panel, body.first_child().as_ref()).ok()?;
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_names_the_lesson_seed_and_commands() {
        begin("pods-are-cattle", 7);
        record("kubectl get pods");
        let text = report("boom");
        assert!(text.contains("lesson: pods-are-cattle\nseed: 7\npanic: boom\n"), "{text}");
        assert!(text.ends_with("commands:\n  kubectl get pods\n"), "{text}");
    }
}
