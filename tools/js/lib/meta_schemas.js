// The meta-schemas (specs/schema/*.json) as the loaders need them. The package hands them over
// from its bundled data (provideMetaSchemas), so reading never touches a file system and runs
// in a browser; without that, they are read from a specs folder with Node's fs, reached only
// then (process.getBuiltinModule, no static import a bundler would follow).
const provided = new Map();

export function provideMetaSchemas(schemas) {
  for (const [name, schema] of Object.entries(schemas)) provided.set(name, schema);
}

export const nodeFs = () => globalThis.process.getBuiltinModule('node:fs');

// The meta-schema `name`: as provided, else from `${specsDir}/schema/${name}` (Node only).
export function metaSchema(name, specsDir) {
  if (provided.has(name)) return provided.get(name);
  return JSON.parse(nodeFs().readFileSync(`${specsDir}/schema/${name}`, 'utf8'));
}
