// What every engine must offer for costs. (Filled in by the costs work.)
export interface CostStore {}
