/** Reading and atomically replacing the `schemas/` folder. */
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';

/** Every file below a folder, as path (with `/`) to text; an absent folder is empty. */
export async function readTree(root: string): Promise<Map<string, string>> {
  const tree = new Map<string, string>();
  let entries: string[];
  try {
    entries = (await readdir(root, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return tree;
    throw error;
  }
  for (const file of entries.sort()) {
    tree.set(relative(root, file).split('\\').join('/'), await readFile(file, 'utf8'));
  }
  return tree;
}

/** Writes a tree to a sibling temp folder, then swaps it in: the target is never half written. */
export async function replaceTree(root: string, tree: Map<string, string>): Promise<void> {
  const staging = `${root}.staging-${process.pid}`;
  const retired = `${root}.retired-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  for (const [file, text] of tree) {
    const target = join(staging, file);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, text);
  }
  await rename(root, retired).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
  await rename(staging, root);
  await rm(retired, { recursive: true, force: true });
}
