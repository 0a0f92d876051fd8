import { builtinEnvironments, type Environment } from 'vitest/environments';

const jsdom = builtinEnvironments.jsdom;

/**
 * vitest's jsdom environment, with Node's AbortController, AbortSignal, FormData and File on the global (the
 * FormData also made from a form, as the DOM's is): the `dom` project's environment (vite.config.ts).
 *
 * jsdom has no fetch, so Request, Response and fetch in these tests are Node's, while the jsdom environment
 * puts jsdom's AbortController, AbortSignal, FormData and File on the global. Node 24's fetch (undici 7) takes
 * a signal or a FormData body only if it is an instance of Node's own class (Node 20's, undici 6, took
 * anything shaped like one): every RTK Query call, `new Request(url, { signal })` with a signal from
 * `new AbortController()`, threw "Expected signal to be an instance of AbortSignal" and ended as a fetch error,
 * and a jsdom FormData body went as the text "[object FormData]". Reading a multipart body back
 * (`request.formData()`) makes each file part with the global File and then asserts it is Node's. In a
 * browser these and fetch come from one realm; here they come from the one fetch does.
 * Blob stays jsdom's, the one jsdom's FileReader reads (so a File here is no jsdom Blob). Nothing in the app or
 * its libraries hands a signal to a DOM API (addEventListener's `signal`), where jsdom would want its own.
 */
export default {
  name: 'jsdom-node-fetch',
  transformMode: jsdom.transformMode,
  async setup(global: typeof globalThis, options: Record<string, unknown>) {
    const { AbortController, AbortSignal, FormData: NodeFormData, File } = global;
    const environment = await jsdom.setup(global, options);
    const DomFormData = global.FormData;
    /**
     * Node's FormData that can also be made from a form, as the DOM's can: React makes one on a form's submit.
     * A file input's files are jsdom's, which it takes as text.
     */
    class FormData extends NodeFormData {
      constructor(form?: HTMLFormElement, submitter?: HTMLElement | null) {
        super();
        if (form !== undefined)
          for (const [name, value] of new DomFormData(form, submitter)) this.append(name, value);
      }
    }
    // Through the setters jsdom's setup defined: its teardown removes them and puts Node's back as before.
    Object.assign(global, { AbortController, AbortSignal, FormData, File });
    return environment;
  },
} satisfies Environment;
