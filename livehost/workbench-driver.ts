// Drives the VS Code workbench page like a user would (command palette, Quick Open, typing, the status
// bar), for live tests of behaviour the protocol cannot reach. Every step waits on a DOM condition
// (Playwright locators), never on a fixed delay.
import type { Locator, Page } from 'playwright-core';

const DEFAULT_STEP_MS = 20_000;

export class WorkbenchDriver {
  constructor(
    readonly page: Page,
    private readonly stepMs = DEFAULT_STEP_MS,
  ) {}

  private get quickInput(): Locator {
    return this.page.locator('.quick-input-widget');
  }

  /** The workbench is interactive once its status bar is drawn; the page may still be starting. */
  async ready(): Promise<void> {
    await this.page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: this.stepMs });
  }

  /**
   * Opens the quick input with `key`, types `text`, waits for a row whose label equals `label` to be the
   * one highlighted, then accepts it. Waiting for the exact row matters: the list filters asynchronously
   * and Enter on a stale list would run whatever was highlighted before.
   */
  private async pick(key: string, text: string, label: string | RegExp): Promise<void> {
    await this.ready();
    await this.page.keyboard.press('Escape'); // close any quick input or widget left open
    await this.page.keyboard.press(key);
    const input = this.quickInput.locator('input.input');
    await input.waitFor({ state: 'visible', timeout: this.stepMs });
    await input.fill(text);
    const row = this.quickInput.locator('.monaco-list-row.focused').filter({ hasText: label });
    await row.waitFor({ state: 'visible', timeout: this.stepMs });
    await input.press('Enter');
    await this.quickInput.waitFor({ state: 'hidden', timeout: this.stepMs });
  }

  /** Runs a command from the command palette by its full title, e.g. "IDEA: Stop Server". */
  async runCommand(title: string): Promise<void> {
    await this.pick('F1', `>${title}`, exact(title));
  }

  /** Opens a workspace file through Quick Open (Ctrl+P) and waits until its editor has focus. */
  async openFile(relPath: string): Promise<void> {
    const name = relPath.split('/').pop()!;
    await this.pick('Control+P', relPath, name);
    await this.page
      .locator('.tabs-container .tab.active')
      .filter({ hasText: name })
      .waitFor({ state: 'visible', timeout: this.stepMs });
    await this.page
      .locator('.editor-group-container.active .monaco-editor.focused')
      .waitFor({ state: 'visible', timeout: this.stepMs });
  }

  /**
   * Types into the focused editor at the end of the document (Ctrl+End), as keystrokes. Plain text is
   * inserted as is; characters that trigger auto-closing or auto-indent are the caller's concern.
   */
  async typeAtEnd(text: string): Promise<void> {
    const editor = this.page.locator('.editor-group-container.active .monaco-editor.focused');
    await editor.waitFor({ state: 'visible', timeout: this.stepMs });
    await this.page.keyboard.press('Control+End');
    await this.page.keyboard.type(text);
  }

  /** Saves the active editor (Ctrl+S in its focused text area). */
  async save(): Promise<void> {
    const editor = this.page.locator('.editor-group-container.active .monaco-editor');
    await editor.first().click();
    await this.page.keyboard.press('Control+S');
  }

  /** Text of the active editor's visible lines (what the user sees; long files are cut to the viewport). */
  async visibleEditorText(): Promise<string> {
    const lines = this.page.locator('.editor-group-container.active .monaco-editor .view-lines .view-line');
    return (await lines.allTextContents()).join('\n').replace(/\u00a0/g, ' ');
  }

  /** True when the active editor tab shows unsaved changes. */
  async activeTabDirty(): Promise<boolean> {
    return (await this.page.locator('.tabs-container .tab.active.dirty').count()) > 0;
  }

  /** Text of the status bar entry matching `match`, waiting (bounded) until one does. */
  async statusBarText(match: string | RegExp, timeoutMs = this.stepMs): Promise<string> {
    const item = this.page.locator('.part.statusbar .statusbar-item').filter({ hasText: match }).first();
    await item.waitFor({ state: 'visible', timeout: timeoutMs });
    return ((await item.textContent()) ?? '').trim();
  }

  /** Allows the page to read and write the system clipboard (headless Chromium asks for permission). */
  async grantClipboard(): Promise<void> {
    await this.page
      .context()
      .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(this.page.url()).origin });
  }

  /** The clipboard as the page sees it (grantClipboard first). */
  async readClipboard(): Promise<string> {
    // A string expression: this package is typechecked without the DOM library.
    return this.page.evaluate<string>('navigator.clipboard.readText()');
  }
}

function exact(s: string): RegExp {
  return new RegExp(`^\\s*${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
}
