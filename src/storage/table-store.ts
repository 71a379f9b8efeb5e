// What every engine must offer for tables. (Filled in by the tables work.)
export interface TableStore {}
