"""``grader serve``: a workbench in the browser, a local web app over the library.

- :mod:`grader.serve.app`: the routes (the page's files and the JSON API) and the app;
- :mod:`grader.serve.security`: the guard in front of them (Host, Origin, body size);
- :mod:`grader.serve.workers`: the worker processes, one job each, killed past the limit;
- :mod:`grader.serve.jobs`: the work of each request, run in a worker;
- :mod:`grader.serve.inputs`: a request's puzzle and options, read as the command line reads
  its own;
- :mod:`grader.serve.banking`: the bank named at start;
- :mod:`grader.serve.server`: starting it (uvicorn) and saying where it listens;
- ``static/``: the page (plain HTML, CSS and JavaScript, no build step, nothing fetched from
  elsewhere).

Its dependencies (Starlette, uvicorn) come with the ``web`` extra; the command line imports
this package only when ``grader serve`` runs.

May import: :mod:`grader.core`, :mod:`grader.techniques`, :mod:`grader.rating`,
:mod:`grader.output`, :mod:`grader.storage`, :mod:`grader.generation`.
"""
