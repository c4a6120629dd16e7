/** A rectangle of the canvas a card body draws in. */
export interface Area {
  x: number;
  y: number;
  width: number;
  height: number;
}
