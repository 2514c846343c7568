// The table page: photo -> tiles -> fixes -> fan breakdown, the referee check
// and recording in a game sheet. Each screen is its own module; this wires them.
import { onChange } from "../i18n.js";
import { initCheck } from "./check.js";
import { initHand, openDialog, relabelKeys, renderHand } from "./hand.js";
import { initPhoto, renderBoxes, setTileOpener, showNotes } from "./photo.js";
import { initRecord, renderRecord } from "./record.js";
import { renderResult } from "./result.js";
import { busy } from "./scoring.js";
import { initSituation, renderSituation } from "./situation.js";
import { onRender, render, state } from "./state.js";
import { initTableSet, showCount } from "./tableset.js";

onRender(renderHand);
onRender(renderBoxes);
onRender(renderSituation);
onRender(renderResult);
onRender(renderRecord);

setTileOpener(openDialog);
initPhoto();
initHand();
initSituation();
initCheck();
initRecord();
initTableSet();
onChange(() => { relabelKeys(); showNotes(); showCount(); render(); });
render();

// For people debugging at the table and for the browser tests.
window.MCRPage = { state, busy };
