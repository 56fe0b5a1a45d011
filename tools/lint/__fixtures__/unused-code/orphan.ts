/** A file no entry point reaches: knip must report it. */
export const orphan = true;
