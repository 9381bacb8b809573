/** The import graph of src/ as madge reads it (the graph `npx madge --extensions ts src` prints). */
import madge from "madge";

/** Each file under src/ and the files it imports, paths relative to src/. */
export type Graph = Record<string, string[]>;

/** The graph; `typesToo` counts `import type` too, else only what is imported as a value. */
export async function importGraph(typesToo: boolean): Promise<Graph> {
  const result = await madge("src", {
    fileExtensions: ["ts"],
    tsConfig: "tsconfig.json",
    detectiveOptions: { ts: { skipTypeImports: !typesToo } },
  });
  return result.obj();
}
