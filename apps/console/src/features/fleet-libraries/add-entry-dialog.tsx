"use client";

import { LIBRARY_CEILINGS } from "@fleet/contracts";
import { SegmentedControl, TextField } from "@fleet/ui";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { FormDialog } from "../../components/form-dialog.tsx";
import type { LibraryItem } from "../../lib/library-entries.ts";
import { useTRPC } from "../../lib/trpc.ts";
import "./add-entry-dialog.css";

type Source = "upload" | "paste" | "git";

const sourceChoices = [
  { value: "upload", label: "Upload a file" },
  { value: "paste", label: "Paste the text" },
  { value: "git", label: "Git repository" },
] as const;

const utf8 = new TextEncoder();
const bytes = new Intl.NumberFormat("en");

/** A definition over the ceiling is refused here with its size, before the upload. */
function sizeProblem(text: string): string | null {
  const size = utf8.encode(text).length;
  return size > LIBRARY_CEILINGS.definitionBytes
    ? `The definition is ${bytes.format(size)} bytes; the library takes at most ${bytes.format(LIBRARY_CEILINGS.definitionBytes)} (256 KiB).`
    : null;
}

/**
 * Adds a fleet definition (Markdown with YAML front matter, docs/fleet-library-format.md) to the
 * workspace's library: uploaded as a file, pasted, or cloned from a git repository. A refusal shows the
 * API's problem, whose detail names the field at fault.
 */
export function AddEntryDialog({
  open,
  workspace,
  onClose,
  onAdded,
}: {
  open: boolean;
  workspace: { id: string; name: string };
  onClose: () => void;
  onAdded: (entry: LibraryItem) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const formId = useId();
  const create = useMutation(
    trpc.fleetLibraries.create.mutationOptions({
      onSuccess: async (entry) => {
        await queryClient.invalidateQueries({ queryKey: trpc.fleetLibraries.list.pathKey() });
        onAdded(entry);
        close();
      },
    }),
  );

  function close() {
    create.reset();
    onClose();
  }

  return (
    <FormDialog
      open={open}
      onClose={close}
      formId={formId}
      submitLabel="Add to library"
      mutation={create}
      size="wide"
      title="Add to the library"
      description={
        <>
          A fleet definition for the workspace <strong>{workspace.name}</strong>: Markdown instructions under
          YAML front matter naming the fleet, its triggers and what it needs. Only this workspace sees it.
        </>
      }
    >
      {open ? (
        <AddEntryForm
          formId={formId}
          onChange={() => create.reset()}
          onSubmit={(body) => create.mutate({ workspace_id: workspace.id, ...body })}
        />
      ) : null}
    </FormDialog>
  );
}

type Body = { definition: string } | { git_url: string; ref?: string; path?: string };

function AddEntryForm({
  formId,
  onChange,
  onSubmit,
}: {
  formId: string;
  onChange: () => void;
  onSubmit: (body: Body) => void;
}) {
  const ids = { file: useId(), text: useId(), url: useId() };
  const [source, setSource] = useState<Source>("upload");
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [text, setText] = useState("");
  const [error, setError] = useState<{ field: string; message: string } | null>(null);

  const fail = (field: string, message: string) => {
    setError({ field, message });
    document.getElementById(field)?.focus();
  };
  const errorFor = (field: string) => (error?.field === field ? error.message : null);

  return (
    <form
      id={formId}
      className="add-entry"
      noValidate
      onChange={onChange}
      onSubmit={(event) => {
        event.preventDefault();
        setError(null);
        if (source === "git") {
          const form = new FormData(event.currentTarget);
          const value = (name: string) => String(form.get(name) ?? "").trim();
          if (!value("git_url")) return fail(ids.url, "Enter the repository’s https:// URL.");
          onSubmit({
            git_url: value("git_url"),
            ...(value("ref") ? { ref: value("ref") } : {}),
            ...(value("path") ? { path: value("path") } : {}),
          });
          return;
        }
        const definition = source === "upload" ? file?.text : text;
        const field = source === "upload" ? ids.file : ids.text;
        if (!definition?.trim()) {
          return fail(field, source === "upload" ? "Choose the definition file." : "Paste the definition.");
        }
        const tooBig = sizeProblem(definition);
        if (tooBig) return fail(field, tooBig);
        onSubmit({ definition });
      }}
    >
      <SegmentedControl
        label="Where the definition comes from"
        value={source}
        choices={sourceChoices}
        onChange={(next) => {
          setSource(next);
          setError(null);
          onChange();
        }}
      />
      {source === "upload" ? (
        <div className="ui-field">
          <label htmlFor={ids.file} className="ui-label">
            Definition file
          </label>
          <input
            id={ids.file}
            type="file"
            className="file-input"
            accept=".md,.markdown,.txt,text/markdown,text/plain"
            aria-describedby={`${ids.file}-hint${errorFor(ids.file) ? ` ${ids.file}-error` : ""}`}
            aria-invalid={errorFor(ids.file) ? true : undefined}
            onChange={async (event) => {
              const chosen = event.target.files?.[0];
              setError(null);
              setFile(chosen ? { name: chosen.name, text: await chosen.text() } : null);
            }}
          />
          <p id={`${ids.file}-hint`} className="ui-hint">
            {file
              ? `${file.name} · ${bytes.format(utf8.encode(file.text).length)} bytes`
              : "A Markdown file (often fleet.md), at most 256 KiB."}
          </p>
          {errorFor(ids.file) ? (
            <p id={`${ids.file}-error`} className="ui-field-error">
              {errorFor(ids.file)}
            </p>
          ) : null}
        </div>
      ) : null}
      {source === "paste" ? (
        <div className="ui-field">
          <label htmlFor={ids.text} className="ui-label">
            Definition
          </label>
          <textarea
            id={ids.text}
            className="ui-textarea add-entry__text"
            value={text}
            onChange={(event) => setText(event.target.value)}
            spellCheck={false}
            placeholder={"---\nname: Issue triage\ndescription: …\n---\n# Instructions\n…"}
            aria-describedby={`${ids.text}-hint${errorFor(ids.text) ? ` ${ids.text}-error` : ""}`}
            aria-invalid={errorFor(ids.text) ? true : undefined}
          />
          <p id={`${ids.text}-hint`} className="ui-hint">
            {bytes.format(utf8.encode(text).length)} of {bytes.format(LIBRARY_CEILINGS.definitionBytes)}{" "}
            bytes. Quote cron expressions: <code>cron: "*/5 * * * *"</code>.
          </p>
          {errorFor(ids.text) ? (
            <p id={`${ids.text}-error`} className="ui-field-error">
              {errorFor(ids.text)}
            </p>
          ) : null}
        </div>
      ) : null}
      {source === "git" ? (
        <div className="add-entry__git">
          <TextField
            id={ids.url}
            name="git_url"
            label="Repository URL"
            placeholder="https://github.com/acme/fleets.git"
            autoComplete="off"
            spellCheck={false}
            maxLength={2048}
            error={errorFor(ids.url)}
            hint="https:// to a public host, without credentials. The service clones it once, read-only."
          />
          <div className="add-entry__row">
            <TextField
              name="ref"
              label="Branch or tag"
              optional
              placeholder="main"
              autoComplete="off"
              spellCheck={false}
              maxLength={255}
              hint="The default branch when empty."
            />
            <TextField
              name="path"
              label="Path in the repository"
              optional
              placeholder="fleet.md"
              autoComplete="off"
              spellCheck={false}
              maxLength={1024}
              hint="fleet.md when empty."
            />
          </div>
        </div>
      ) : null}
    </form>
  );
}
