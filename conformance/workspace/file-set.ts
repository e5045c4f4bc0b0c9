// A folder's files by relative path, as the fixture workspace's content modules write them: a leaf, so that
// those modules share it without importing one another.
export type FileSet = Record<string, string>;
