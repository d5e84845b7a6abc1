;;; ascend-migrate-eglot.el --- ascend-migrate in Emacs through eglot  -*- lexical-binding: t -*-
;; Use as is: put this file on your load-path and add (require 'ascend-migrate-eglot) to your init file,
;; or paste it there. Works with eglot 1.9 (Debian's elpa-eglot for Emacs 28) and the eglot built into
;; Emacs 29 and later. Needs `python3 -m pip install ascend-migrate'; `ascend-migrate-command' names its console script.
;; tests/e2e/test_emacs_eglot.py loads this file as is, so it is checked in CI.
;;
;; eglot runs one server per buffer: with this file, Python buffers get ascend-migrate instead of the
;; default Python server (pylsp, pyright). M-x eglot-code-actions (or eglot-code-action-quickfix) applies
;; a fix; the source.fixAll.ascend-migrate action fixes every safe finding of the buffer.
(require 'eglot)

(defgroup ascend-migrate nil
  "Marks the PyTorch code that must change to run on Huawei Ascend."
  :group 'tools)

(defcustom ascend-migrate-command "ascend-migrate"
  "The console script of the install, for example a project's .venv/bin/ascend-migrate.
Not `python -m ascend_migrate': with the project as working directory, Python would import a project
file named ascend_migrate.py before any of ascend-migrate's code runs."
  :type 'string)

(defcustom ascend-migrate-settings '(:target "npu" :torchVersion "2.8" :mindsporeVersion "2.10")
  "The `ascendMigrate' settings sent to the server (a plist; every key is in docs/editors/README.md).
A project's [tool.ascend-migrate] in pyproject.toml wins over them unless :configurationPreference
is \"editorFirst\"."
  :type 'plist)

(defun ascend-migrate-eglot-contact (&optional _interactive)
  "The command that starts the server, read when eglot connects (so the settings above may change)."
  (list ascend-migrate-command "serve"
        :initializationOptions (list :ascendMigrate ascend-migrate-settings)))

(add-to-list 'eglot-server-programs '((python-mode python-ts-mode) . ascend-migrate-eglot-contact))

;; Answers the server's workspace/configuration request for the `ascendMigrate' section (set
;; `ascend-migrate-settings' before this file loads; a function-valued configuration is left alone).
(unless (functionp (default-value 'eglot-workspace-configuration))
  (setq-default eglot-workspace-configuration
                (plist-put (copy-sequence (default-value 'eglot-workspace-configuration))
                           :ascendMigrate ascend-migrate-settings)))

(add-hook 'python-mode-hook #'eglot-ensure)

(provide 'ascend-migrate-eglot)
;;; ascend-migrate-eglot.el ends here
