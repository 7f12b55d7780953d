export * from './channels';
export type * from './contract';
export type * from './views';
export * from './limits';
export * from './inspector-view';
