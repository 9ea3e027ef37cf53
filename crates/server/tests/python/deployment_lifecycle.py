"""The Python kubernetes client against `kubelab up`: create a Deployment, watch its pods
become Running, scale it, and read the Event the scale-up recorded. Run by
crates/server/tests/python_client.rs with the kubeconfig `kubelab up` wrote."""

import sys

from kubernetes import client, config, watch

config.load_kube_config(config_file=sys.argv[1])
apps, core = client.AppsV1Api(), client.CoreV1Api()

container = client.V1Container(name="web", image="hello:v1", ports=[client.V1ContainerPort(container_port=8080)])
template = client.V1PodTemplateSpec(
    metadata=client.V1ObjectMeta(labels={"app": "web"}), spec=client.V1PodSpec(containers=[container])
)
spec = client.V1DeploymentSpec(
    replicas=2, selector=client.V1LabelSelector(match_labels={"app": "web"}), template=template
)
deployment = client.V1Deployment(metadata=client.V1ObjectMeta(name="web"), spec=spec)
created = apps.create_namespaced_deployment("default", deployment)
print("created", created.metadata.name, "replicas", created.spec.replicas)

running = set()
stream = watch.Watch()
for event in stream.stream(core.list_namespaced_pod, "default", label_selector="app=web", timeout_seconds=60):
    pod = event["object"]
    if pod.status.phase == "Running":
        running.add(pod.metadata.name)
    if len(running) == 2:
        stream.stop()
print("running", len(running))

scaled = apps.patch_namespaced_deployment_scale("web", "default", {"spec": {"replicas": 3}})
print("scaled to", scaled.spec.replicas)

events = core.list_namespaced_event(
    "default", field_selector="involvedObject.kind=Deployment,involvedObject.name=web"
)
messages = [e.message for e in events.items if e.reason == "ScalingReplicaSet"]
print("event", messages[-1].split(" from ")[1] if messages else "none")
