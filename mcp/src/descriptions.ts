// What a model reads of a tool beyond the spec's wording. The generated definitions describe the
// protocol (one line per topic, fields citing their clauses); a model choosing and calling tools needs
// the way to use them: name code by symbol rather than by a position it may get wrong, which tool to
// start from, and where each answer's name paths go next. Added to the listed description and to the
// `namePath` argument; the schemas are otherwise the generated ones.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpToolDefinition } from '../../generated/current';

type Schema = Tool['inputSchema'];

/** How to use a tool, by name: said after the generated description. */
const USE: Readonly<Record<string, string>> = {
  nav_findSymbol:
    'Start here to read code by name, with no line numbers: namePath "Hono/route" is the symbol route inside Hono, a bare "route" every symbol so named; filePath narrows it to a file or a folder (omitted: the whole workspace). includeBody gives the source (doc comment included), depth 1 the members of a class. Each symbol found has its own namePath: pass it with its filePath to nav_definition, nav_references, nav_referencingSymbols, nav_callHierarchy, nav_hover or edit_rename.',
  nav_workspaceSymbols:
    'For a name you know only in part: every symbol whose name begins with query (case-insensitive; the language server may also match words inside names), with its kind, container and file, across every project of the workspace. When the answer could not search everything, its text says what was not searched and why.',
  nav_referencingSymbols:
    'Who uses a symbol, and from where: its references grouped by the function, method or class containing each one ("called from /Router/add"), each with its line. Name the symbol by filePath and namePath.',
  nav_callHierarchy:
    'direction "incoming": who calls the function (its callers, then theirs with depth > 1); "outgoing": what it calls. Name the function by filePath and namePath.',
  edit_apply:
    'Edit by symbol, with no line numbers: {"kind": "edit", "filePath": …, "edits": [{"namePath": "Circle/area", "operation": "replace", "newText": …}]} replaces the symbol\'s whole text (what nav_findSymbol\'s includeBody shows; its doc comment is kept unless newText brings its own); "insertAfter" / "insertBefore" add newText as new lines after or before it (a helper after a function); "delete" removes it, refused while it is still used. newText is re-indented to the symbol\'s indentation. Range edits take 0-based line and character. Changes may also create, rename and delete files. All or nothing: nothing is written if any change is refused. dryRun: true answers the diffs first. The answer\'s transactionId undoes it with edit_undo; pass a file\'s sha256After as the next edit\'s sha256 to refuse a stale edit.',
  edit_codeActions:
    'The language server\'s fixes: name the range (line, character, endLine, endCharacter: a diagnostic\'s, as diag_list gives it) or the symbol (filePath and namePath); only narrows by kind ("quickfix", "source.organizeImports", "refactor"). Each action\'s id goes to edit_applyCodeAction, in this session, while its file is unchanged; after any write, list again.',
  edit_applyCodeAction:
    "Applies an action edit_codeActions listed, by its id, as one transaction: dryRun: true answers the diff first. The answer's transactionId undoes it with edit_undo.",
  edit_format:
    "Formats the whole file, or only the symbol namePath names (or a range), with the language's formatter; dryRun: true answers the diff. The answer's transactionId undoes it with edit_undo.",
  fs_move:
    "Moves or renames a file or folder and updates every import of it in the workspace, as one transaction; dryRun: true answers the importers' diffs first. The answer's transactionId undoes the move and the import edits together with edit_undo.",
  edit_undo:
    'Undoes a write (edit_apply, edit_applyCodeAction, edit_format, fs_move, edit_rename, edit_replace) by the transactionId its answer gave, every file back as it was; refused, naming the file, when a file changed since, so undo several writes newest first. Its own answer has a transactionId: undoing that redoes.',
  edit_transactions:
    'The writes edit_undo can take back, newest first, with their transactionId, topic, label and files.',
};

/** Said after the description of a tool that takes a position as line/character or namePath. */
const BY_NAME =
  'Name the symbol by filePath and namePath (e.g. "Circle/area") rather than line and character when you know its name: no position to get wrong.';

/** The `namePath` argument of a tool that takes it in place of line and character. */
const NAME_PATH_ARGUMENT =
  'The symbol, by name path, in place of line and character: "Circle/area" is area inside Circle (at any depth), "/Circle/area" anchors Circle at the top of the file, a bare "area" is any symbol so named, "parse[1]" the second of the symbols named parse under one parent (overloads, 0-based). Names are compared exactly; a "/", "[", "]" or "\\" inside a name is written with a "\\" before it. It must name exactly one symbol of filePath: none or several is an error listing the candidates, each with its own name path to pass here. The symbols nav_findSymbol, nav_referencingSymbols and nav_callHierarchy list carry their own name paths.';

/** nav_findSymbol's `namePath`: what to find. */
const FIND_ARGUMENT =
  'What to find: "Hono/route" (route inside Hono, at any depth), "/Hono/route" (Hono at the top of the file), "route" (every symbol so named), "parse[1]" (the second of the symbols named parse under one parent). Names are compared exactly, case included; substring: true matches the last segment inside names. A "/", "[", "]" or "\\" inside a name is written with a "\\" before it.';

/** Whether `schema` takes a position as line and character or as a name path (since 0.1.8). */
function takesNamePath(schema: Schema): boolean {
  const p = schema.properties ?? {};
  return p.namePath !== undefined && p.line !== undefined && p.character !== undefined;
}

/** The listed description of tool `d`: the generated one, then how to use the tool. */
export function toolDescription(d: McpToolDefinition): string {
  const use = USE[d.name] ?? (takesNamePath(d.inputSchema as Schema) ? BY_NAME : undefined);
  return use ? `${d.description} ${use}` : d.description;
}

/** The input schema of tool `d` with its `namePath` argument described for a model. */
export function describedInput(name: string, schema: Schema): Schema {
  const namePath = schema.properties?.namePath as Record<string, unknown> | undefined;
  if (!namePath) return schema;
  const text = takesNamePath(schema) ? NAME_PATH_ARGUMENT : name === 'nav_findSymbol' ? FIND_ARGUMENT : undefined;
  if (!text) return schema;
  return { ...schema, properties: { ...schema.properties, namePath: { ...namePath, description: text } } };
}
