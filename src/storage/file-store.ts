// What every engine must offer for files. (Filled in by the files work.)
export interface FileStore {}
