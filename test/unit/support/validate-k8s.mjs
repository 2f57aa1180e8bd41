// Validates Kubernetes resources against their published schemas: kubernetes-models (the core API groups),
// @kubernetes-models/gateway-api and @kubernetes-models/prometheus-operator. Those packages are ES modules only,
// which jest's CommonJS runtime cannot load, so test/unit/deploy-manifests.test.ts runs this file with node:
//   stdin   a JSON array of resources
//   stdout  {"validated": <count>, "problems": ["<kind>/<name>: <what is wrong>", ...]}
// A resource whose apiVersion/kind has no schema is a problem, never skipped.

/** The module that holds the models of an apiVersion. */
function modelModule(apiVersion) {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  if (group === '') return `kubernetes-models/${version}`;
  if (group === 'gateway.networking.k8s.io') return `@kubernetes-models/gateway-api/${group}/${version}`;
  if (group === 'monitoring.coreos.com') return `@kubernetes-models/prometheus-operator/${group}/${version}`;
  return `kubernetes-models/${group}/${version}`;
}

async function modelOf(apiVersion, kind) {
  try {
    const model = (await import(modelModule(apiVersion)))[kind];
    return typeof model === 'function' && typeof model.prototype?.validate === 'function' ? model : undefined;
  } catch {
    return undefined;
  }
}

let input = '';
for await (const chunk of process.stdin) input += chunk;
const problems = [];
let validated = 0;
for (const resource of JSON.parse(input)) {
  const id = `${resource.kind}/${resource.metadata?.name}`;
  const Model = await modelOf(String(resource.apiVersion), String(resource.kind));
  if (!Model) {
    problems.push(`${id}: no schema for ${resource.apiVersion} ${resource.kind}`);
    continue;
  }
  try {
    new Model(resource).validate();
    validated++;
  } catch (err) {
    problems.push(`${id}: ${err.message}`);
  }
}
process.stdout.write(JSON.stringify({ validated, problems }));
