export * from './channels';
export type * from './contract';
