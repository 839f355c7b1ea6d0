// Progressive touches only: every page works without this file.
document.addEventListener('change', function (e) {
  // Filters apply as soon as one is chosen.
  var f = e.target.form;
  if (f && f.classList.contains('search') && e.target.tagName === 'SELECT') f.submit();
});
