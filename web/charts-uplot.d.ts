// Types of the demo's charting library: uplot 1.6.32 ships its declarations as dist/uPlot.d.ts without naming
// them in package.json, so the bare import is declared here from that file.
declare module 'uplot' {
  import uPlot = require('uplot/dist/uPlot.js');
  export = uPlot;
}
