import type { ComponentType } from 'react';
import type { RouteHandle } from './routeHandle';
import type { RecordLabels, RecordRoute } from '../kit/records/registry';

/**
 * A web context is one folder `web/src/modules/<ctx>/` whose `index.ts` exports one manifest
 * (`WebContext`) of what it brings: its pages and its i18next namespace. `contexts.ts` lists
 * the manifests; the router, the menu's pages and i18n are assembled from that list. A
 * manifest is data and loaders only (nothing of the page is evaluated until it is visited).
 */

/** Loads a component in its own chunk: `page(() => import('./pages/XPage'), 'XPage')`. */
export type PageLoader = () => Promise<ComponentType>;

export function page<K extends string, M extends Record<K, ComponentType>>(
  load: () => Promise<M>,
  name: K,
): PageLoader {
  return () => load().then((module) => module[name]);
}

/** A route a context brings; its handle says what the frame does with it (tab title, icon, keep-alive, public). */
export interface ContextPage extends RouteHandle {
  path: string;
  load: PageLoader;
  /** Alone on screen (sign-in, lock, error pages); default: inside the main layout. */
  alone?: boolean;
}

/** A namespace's messages in both languages; `en` has exactly zh-CN's keys (the type says so). */
export interface Catalogue<M> {
  'zh-CN': M;
  en: M;
}

/**
 * A context's i18next namespace: its keys are `t('<namespace>.<key>')` (i18n/index.ts). Bundled
 * with the shell when the shell itself needs it before any page loads (sign-in, the layout);
 * else loaded with the context's pages, before they render.
 */
export type ContextI18n<NS extends string, M> =
  | { namespace: NS; messages: Catalogue<M> }
  | { namespace: NS; load: () => Promise<Catalogue<M>> };

/** `NS`, `M`: the namespace and the type of its messages (`never`: the context has none). */
export interface WebContext<NS extends string = never, M = never> {
  /** Its folder under `web/src/modules/`. */
  name: string;
  i18n?: ContextI18n<NS, M>;
  pages?: ContextPage[];
  /** Screens behind the server menu's codes (spec §2 dynamic routes): menu code → page. */
  menuPages?: Record<string, PageLoader>;
  /** The record kinds it shows and where one opens (the messages bell, the audit console link there). */
  recordRoutes?: Record<string, RecordRoute>;
  /** How its record kinds' fields are named (the audit console's diffs), loaded when asked. */
  recordLabels?: Record<string, () => Promise<RecordLabels>>;
}

/**
 * A namespace loaded with the context's pages, its two language files each its own chunk:
 * `lazyNamespace('week', () => Promise.all([import('./i18n/zh-CN'), import('./i18n/en')]))`.
 */
export function lazyNamespace<NS extends string, M>(
  namespace: NS,
  load: () => Promise<[{ zhCN: M }, { en: M }]>,
): ContextI18n<NS, M> {
  return { namespace, load: () => load().then(([zh, english]) => ({ 'zh-CN': zh.zhCN, en: english.en })) };
}

/**
 * The usual context: pages in the main layout and a namespace of the same name loaded with them
 * (`lazyNamespace`); the messages' type is the Chinese file's.
 */
export function pagesContext<NS extends string, M>(
  name: NS,
  messages: () => Promise<[{ zhCN: M }, { en: M }]>,
  pages: ContextPage[],
): WebContext<NS, M> {
  return { name, i18n: lazyNamespace(name, messages), pages };
}

/** Every namespace of the listed contexts with the type of its messages (what `t` is checked against). */
export type NamespacesOf<L extends readonly WebContext<string, unknown>[]> = {
  [C in L[number] as C extends WebContext<infer NS, unknown> ? NS : never]: C extends WebContext<string, infer M>
    ? M
    : never;
};
