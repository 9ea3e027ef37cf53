//! A hosted lab's Kubernetes API through the real kubectl 1.36: the instructor downloads a
//! kubeconfig from the lab (its owner's token), a learner another (a viewer's), kubectl
//! reaches the lab under `/k8s/<lab>/` on the server's own TLS listener, and what kubectl
//! changed is kept with the lab's scripts, so a fresh replay of them draws the same cluster.

mod support;

use kubelab_core::lesson::{Lesson, LessonLab};
use serde_json::json;
use support::up::{HELLO_DEPLOYMENT, kubectl_with, oracle};
use support::{Http, Server, temp_dir};

const DEPLOYMENT: &str = HELLO_DEPLOYMENT;

/// Signs up an instructor, opens a class and a hosted lab, and joins one learner: the
/// instructor's cookie, the learner's, and the lab's id.
async fn lab_with_a_learner(http: &Http) -> (String, String, String) {
    let signup = json!({"email": "ada@example.org", "password": "correct horse", "display_name": "Ada"});
    let instructor = http.call("POST", "/api/instructors", None, Some(&signup)).await.unwrap().cookie();
    let class = http.call("POST", "/api/classes", Some(&instructor), Some(&json!({"name": "K8s"}))).await.unwrap();
    let join = json!({"join_code": class.body["join_code"], "display_name": "Grace Hopper"});
    let learner = http.call("POST", "/api/join", None, Some(&join)).await.unwrap().cookie();
    let lab = http.call("POST", "/api/labs", Some(&instructor), Some(&json!({}))).await.unwrap();
    assert_eq!(lab.status, 201, "{}", lab.body);
    (instructor, learner, lab.body["id"].as_str().unwrap().to_string())
}

#[tokio::test(flavor = "multi_thread")]
async fn kubectl_reaches_a_hosted_lab_and_its_changes_replay() {
    let Some(oracle) = oracle() else { return };
    let dir = temp_dir("hosted-api");
    let server = Server::start(&format!("sqlite://{}/db.sqlite", dir.display()), &dir);
    let http = Http::new(&server.addr);
    let (instructor, learner, lab) = lab_with_a_learner(&http).await;

    let download = |cookie: String, name: &'static str| {
        let (http, lab, dir) = (http.clone(), lab.clone(), dir.clone());
        async move {
            let (status, text) = http.text("POST", &format!("/api/labs/{lab}/kubeconfig"), &cookie).await.unwrap();
            assert_eq!(status, 200, "{text}");
            assert!(text.contains(&format!("/k8s/{lab}")), "{text}");
            let path = dir.join(name);
            std::fs::write(&path, text).unwrap();
            path
        }
    };
    let owner = download(instructor.clone(), "owner.kubeconfig").await;
    let viewer = download(learner, "viewer.kubeconfig").await;

    let blocking = |config: std::path::PathBuf, args: &'static str, stdin: Option<&'static str>| {
        let oracle = oracle.clone();
        tokio::task::spawn_blocking(move || kubectl_with(&oracle, &config, args, stdin))
    };
    let (nodes, ok) = blocking(owner.clone(), "get nodes -o name", None).await.unwrap();
    assert!(ok, "{nodes}");
    assert!(nodes.starts_with("node/control-plane\n"), "{nodes}");
    let (applied, _) = blocking(owner.clone(), "apply -f -", Some(DEPLOYMENT)).await.unwrap();
    assert_eq!(applied, "deployment.apps/web created\n");
    let (rolled, ok) = blocking(owner.clone(), "rollout status deployment/web --timeout=90s", None).await.unwrap();
    assert!(ok && rolled.ends_with("successfully rolled out\n"), "{rolled}");

    // The owner runs a command in a pod; it is kept with the lab's scripts like a write.
    let (ran, ok) = blocking(owner.clone(), "run client --image=busybox:1.37 -- sleep infinity", None).await.unwrap();
    assert!(ok, "{ran}");
    let (waited, ok) =
        blocking(owner.clone(), "wait --for=condition=Ready pod/client --timeout=60s", None).await.unwrap();
    assert!(ok, "{waited}");
    let (echoed, _) = blocking(owner.clone(), "exec client -- sh -c 'echo hello from $HOSTNAME'", None).await.unwrap();
    assert_eq!(echoed, "hello from client\n");
    let (forward, ok) = blocking(owner.clone(), "port-forward pod/client 0:80", None).await.unwrap();
    assert!(!ok && forward.contains("port-forward into a hosted lab is not served yet"), "{forward}");
    let (refused, _) = blocking(viewer.clone(), "exec client -- echo hi", None).await.unwrap();
    // kubectl words a refused exec upgrade its own way around the API server's Status.
    assert_eq!(
        refused,
        "error: unable to upgrade connection: pods \"client\" is forbidden: User \"grace-hopper\" cannot create resource \"pods/exec\" in API group \"\" in the namespace \"default\"\n"
    );

    let (pods, ok) = blocking(viewer.clone(), "get pods -l app=web -o name", None).await.unwrap();
    assert!(ok && pods.lines().count() == 2, "a viewer reads: {pods}");
    let (refused, _) = blocking(viewer.clone(), "delete deployment web", None).await.unwrap();
    assert_eq!(
        refused,
        "Error from server (Forbidden): deployments.apps \"web\" is forbidden: User \"grace-hopper\" cannot delete resource \"deployments\" in API group \"apps\" in the namespace \"default\"\n"
    );

    // The instructor revokes the learner's token; kubectl is turned away.
    let tokens = http.call("GET", &format!("/api/labs/{lab}/tokens"), Some(&instructor), None).await.unwrap();
    let grace = tokens.body.as_array().unwrap().iter().find(|t| t["user"] == "grace-hopper").unwrap().clone();
    assert_eq!(grace["role"], "viewer");
    let path = format!("/api/labs/{lab}/tokens/{}", grace["id"].as_str().unwrap());
    assert_eq!(http.call("DELETE", &path, Some(&instructor), None).await.unwrap().status, 204);
    let (unauthorized, _) = blocking(viewer, "get pods", None).await.unwrap();
    assert_eq!(unauthorized, "error: You must be logged in to the server (Unauthorized)\n");

    // What kubectl changed is in the lab's scripts: a replay builds the same pods.
    let (pods, _) = blocking(owner, "get pods -l app=web -o name", None).await.unwrap();
    let shown = http.call("GET", &format!("/api/labs/{lab}"), Some(&instructor), None).await.unwrap();
    let scripts: Vec<String> =
        shown.body["scripts"].as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect();
    assert!(scripts.iter().any(|s| s.starts_with("lab api --user 'ada'")), "{scripts:?}");
    assert!(scripts.iter().any(|s| s.starts_with("lab api-exec --user 'ada' -n 'default' 'client'")), "{scripts:?}");
    let replayed = replay(&scripts);
    assert_eq!(replayed, pods, "the replay has the pods the lab has");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The pods of `app=web` in a fresh sandbox lab after the scripts, as `-o name` prints them.
fn replay(scripts: &[String]) -> String {
    let lesson = Lesson::sandbox();
    let mut lab = LessonLab::new(&lesson);
    lab.setup(&lesson).unwrap();
    for script in scripts {
        lab.run_as_learner(script).unwrap();
    }
    let ran = lab.run_as_learner("kubectl get pods -l app=web -o name").unwrap();
    ran[0].output.clone()
}
