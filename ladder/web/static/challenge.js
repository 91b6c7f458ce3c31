// The challenge form counts the ticked opponents as you go and says how many more the game needs
// (the page already states the range without JavaScript; the server checks it again).
document.querySelectorAll("form[data-opponents-min]").forEach((form) => {
  const low = Number(form.dataset.opponentsMin);
  const high = Number(form.dataset.opponentsMax);
  const output = form.querySelector("output.opponents-count");
  const button = form.querySelector("button[type=submit]");
  const boxes = Array.from(form.querySelectorAll("input[type=checkbox]"));
  const plural = (n) => (n === 1 ? "opponent" : "opponents");
  const update = () => {
    const chosen = boxes.filter((box) => box.checked).length;
    if (chosen < low) {
      output.textContent = `${chosen} chosen: tick ${low - chosen} more ${plural(low - chosen)}.`;
    } else if (chosen > high) {
      output.textContent = `${chosen} chosen: untick ${chosen - high}; at most ${high} ${plural(high)}.`;
    } else {
      output.textContent = `${chosen} ${plural(chosen)} chosen: a ${chosen + 1}-player game.`;
    }
    output.hidden = false;
    button.disabled = chosen < low || chosen > high;
  };
  form.addEventListener("change", update);
  update();
});
