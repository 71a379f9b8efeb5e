// What every engine must offer for versioned objects, tags and aliases.
// (Filled in by the objects work.)
export interface ObjectStore {}
