//! `all`, `any` and `not`: checks built from checks. Their messages are their parts' messages,
//! so the learner reads what is still missing rather than "1 of 3 checks failed".

use super::{Check, Context, Verdict};

/// Passes when every check passes; says what is still missing, else what is done.
pub fn all(checks: &[Check], ctx: &Context<'_>) -> Verdict {
    let verdicts: Vec<Verdict> = checks.iter().map(|c| c.evaluate(ctx)).collect();
    let failing: Vec<&str> = verdicts.iter().filter(|v| !v.passed).map(|v| v.message.as_str()).collect();
    if failing.is_empty() {
        let done: Vec<&str> = verdicts.iter().map(|v| v.message.as_str()).collect();
        return Verdict::new(true, done.join("; "));
    }
    Verdict::new(false, failing.join("; "))
}

/// Passes when at least one check passes; names the one that did, else all that did not.
pub fn any(checks: &[Check], ctx: &Context<'_>) -> Verdict {
    let verdicts: Vec<Verdict> = checks.iter().map(|c| c.evaluate(ctx)).collect();
    if let Some(passing) = verdicts.iter().find(|v| v.passed) {
        return passing.clone();
    }
    let all: Vec<&str> = verdicts.iter().map(|v| v.message.as_str()).collect();
    Verdict::new(false, format!("none of these yet: {}", all.join("; ")))
}

/// Passes when the check fails. The message is the check's own: it states the fact either way.
pub fn not(check: &Check, ctx: &Context<'_>) -> Verdict {
    let verdict = check.evaluate(ctx);
    Verdict::new(!verdict.passed, verdict.message)
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{check, hello_lab};
    use super::*;

    #[test]
    fn all_any_and_not_combine_their_parts() {
        let lab = hello_lab(10);
        let ctx = lab.context();
        let ready = check("pods: {selector: app=hello, ready: true, count: 3}");
        let five = check("pods: {selector: app=hello, count: 5}");
        let both = Check::All(vec![ready.clone(), five.clone()]);
        let verdict = both.evaluate(&ctx);
        assert!(!verdict.passed);
        assert_eq!(verdict.message, "3 pods with app=hello (want 5)");
        let verdict = Check::Any(vec![five.clone(), ready.clone()]).evaluate(&ctx);
        assert_eq!(verdict, Verdict::new(true, "3 of 3 pods with app=hello are ready"));
        let verdict = Check::Any(vec![five.clone()]).evaluate(&ctx);
        assert_eq!(verdict, Verdict::new(false, "none of these yet: 3 pods with app=hello (want 5)"));
        let verdict = Check::Not(Box::new(five)).evaluate(&ctx);
        assert_eq!(verdict, Verdict::new(true, "3 pods with app=hello (want 5)"));
        let verdict = Check::All(vec![ready.clone(), ready]).evaluate(&ctx);
        assert!(verdict.passed);
    }

    #[test]
    fn compositions_read_from_yaml() {
        let c =
            check("all:\n- not: {gone: {kind: deployment, name: hello}}\n- any: [{exists: {kind: Pod, name: x}}]\n");
        let Check::All(parts) = c else { panic!("all") };
        assert!(matches!(parts[0], Check::Not(_)));
    }
}
